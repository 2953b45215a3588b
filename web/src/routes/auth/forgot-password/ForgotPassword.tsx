import { useMutation } from '@tanstack/react-query';
import { Alert, Button, Form, Input, Result } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { requestPasswordReset } from '../../../api/signIn';
import { ApiError } from '../../../api/errors';
import { showServerErrors } from '../../../form/serverErrors';
import { PublicCard } from '../PublicCard';

interface ForgotForm {
  username_or_email: string;
  tenant_code?: string;
}

/** Asks for a reset link. The answer never says whether the account exists. */
export default function ForgotPassword() {
  const { t } = useTranslation();
  const [form] = Form.useForm<ForgotForm>();
  const [error, setError] = useState<string | null>(null);
  const forgot = useMutation({
    mutationFn: (v: ForgotForm) =>
      requestPasswordReset({
        username_or_email: v.username_or_email.trim(),
        ...(v.tenant_code?.trim() ? { tenant_code: v.tenant_code.trim() } : {}),
      }),
    onMutate: () => setError(null),
    onError: (err) => {
      if (err instanceof ApiError && err.status === 429) setError(t('account.forgot.tooMany'));
      else setError(showServerErrors(form, err));
    },
  });

  if (forgot.isSuccess) {
    return (
      <PublicCard title={t('account.forgot.title')}>
        <Result
          status="success"
          title={t('account.forgot.sentTitle')}
          subTitle={t('account.forgot.sent')}
          extra={<Link to="/login">{t('account.backToSignIn')}</Link>}
        />
      </PublicCard>
    );
  }
  return (
    <PublicCard title={t('account.forgot.title')}>
      <p>{t('account.forgot.intro')}</p>
      {error && (
        <Alert role="alert" type="error" title={error} showIcon style={{ marginBottom: 16 }} />
      )}
      <Form<ForgotForm>
        form={form}
        layout="vertical"
        requiredMark={false}
        onFinish={(v) => forgot.mutate(v)}
      >
        <Form.Item
          name="username_or_email"
          label={t('account.forgot.who')}
          rules={[
            {
              required: true,
              whitespace: true,
              message: t('validation.required', { label: t('account.forgot.who') }),
            },
          ]}
        >
          <Input autoComplete="username" autoFocus />
        </Form.Item>
        <Form.Item name="tenant_code" label={t('login.tenant')} tooltip={t('login.tenantHint')}>
          <Input placeholder="default" />
        </Form.Item>
        <Button type="primary" htmlType="submit" block loading={forgot.isPending}>
          {t('account.forgot.submit')}
        </Button>
      </Form>
      <div style={{ marginTop: 16, textAlign: 'center' }}>
        <Link to="/login">{t('account.backToSignIn')}</Link>
      </div>
    </PublicCard>
  );
}
