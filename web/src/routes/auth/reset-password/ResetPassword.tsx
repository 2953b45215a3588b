import { useMutation } from '@tanstack/react-query';
import { Alert, Button, Form, Input } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { resetPassword } from '../../../api/signIn';
import { NewPasswordFields } from '../../../form/NewPasswordFields';
import { showServerErrors } from '../../../form/serverErrors';
import { PublicCard } from '../PublicCard';

interface ResetForm {
  token: string;
  new_password: string;
  confirm: string;
}

/**
 * Where the reset mail links (`/reset-password?token=…`): a new password twice. The server's
 * problems land on the fields they name (`token`: used, expired or unknown; `new_password`: the
 * policy), so the reset code is a field too, filled in from the link.
 */
export default function ResetPassword() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const [form] = Form.useForm<ResetForm>();
  const [error, setError] = useState<string | null>(null);
  const reset = useMutation({
    mutationFn: (v: ResetForm) =>
      resetPassword({ token: v.token.trim(), new_password: v.new_password }),
    onMutate: () => setError(null),
    onSuccess: () => navigate('/login', { replace: true, state: { accountNotice: 'reset' } }),
    onError: (err) => setError(showServerErrors(form, err)),
  });
  const required = (label: string) => ({
    required: true,
    whitespace: true,
    message: t('validation.required', { label }),
  });
  return (
    <PublicCard title={t('account.reset.title')}>
      {error && (
        <Alert role="alert" type="error" title={error} showIcon style={{ marginBottom: 16 }} />
      )}
      <Form<ResetForm>
        form={form}
        layout="vertical"
        requiredMark={false}
        initialValues={{ token: params.get('token') ?? '' }}
        onFinish={(v) => reset.mutate(v)}
      >
        <Form.Item
          name="token"
          label={t('account.reset.token')}
          extra={t('account.reset.tokenHint')}
          rules={[required(t('account.reset.token'))]}
        >
          <Input autoComplete="off" spellCheck={false} />
        </Form.Item>
        <NewPasswordFields extra={t('account.reset.policy')} autoFocus />
        <Button type="primary" htmlType="submit" block loading={reset.isPending}>
          {t('account.reset.submit')}
        </Button>
      </Form>
      <div style={{ marginTop: 16, display: 'flex', justifyContent: 'space-between' }}>
        <Link to="/forgot-password">{t('account.reset.newLink')}</Link>
        <Link to="/login">{t('account.backToSignIn')}</Link>
      </div>
    </PublicCard>
  );
}
