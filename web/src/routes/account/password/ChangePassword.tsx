import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Form, Input } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { changePassword } from '../../../api/account';
import { useAuth } from '../../../auth/AuthContext';
import { NewPasswordFields } from '../../../form/NewPasswordFields';
import { showServerErrors } from '../../../form/serverErrors';

interface PasswordForm {
  old_password: string;
  new_password: string;
  confirm: string;
}

export default function ChangePassword() {
  const { t } = useTranslation();
  const [form] = Form.useForm<PasswordForm>();
  const { me } = useAuth();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const change = useMutation({
    mutationFn: (v: PasswordForm) =>
      changePassword({ old_password: v.old_password, new_password: v.new_password }),
    onSuccess: async () => {
      message.success(t('password.changed'));
      await queryClient.invalidateQueries({ queryKey: ['me'] });
      await navigate('/todo');
    },
    onError: (err) => setError(showServerErrors(form, err)),
  });
  const required = (label: string) => ({
    required: true,
    message: t('validation.required', { label }),
  });
  return (
    <Card title={t('password.title')} style={{ maxWidth: 480 }}>
      {me?.must_change_password && (
        <Alert type="warning" title={t('password.forced')} showIcon style={{ marginBottom: 16 }} />
      )}
      {error && (
        <Alert role="alert" type="error" title={error} showIcon style={{ marginBottom: 16 }} />
      )}
      <Form form={form} layout="vertical" onFinish={(v) => change.mutate(v)}>
        <Form.Item
          name="old_password"
          label={t('password.old')}
          rules={[required(t('password.old'))]}
        >
          <Input.Password autoComplete="current-password" />
        </Form.Item>
        <NewPasswordFields />
        <Button type="primary" htmlType="submit" loading={change.isPending}>
          {t('common.save')}
        </Button>
      </Form>
    </Card>
  );
}
