import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Form, Input, List, QRCode, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { confirmTotp, disableTotp, enrollTotp, useTotpStatus } from '../../../api/account';
import { showServerErrors } from '../../../form/serverErrors';
import { ErrorState, LoadingState } from '../../../components/states';

interface CodeForm {
  code: string;
  password: string;
}

/** The current password, which every change of the second factor takes. */
function PasswordItem() {
  const { t } = useTranslation();
  const label = t('account.totp.password');
  return (
    <Form.Item
      name="password"
      label={label}
      rules={[{ required: true, message: t('validation.required', { label }) }]}
    >
      <Input.Password autoComplete="current-password" />
    </Form.Item>
  );
}

/**
 * A code field (and the password, when asked) and its submit button, with the server's `code`
 * and `password` problems on those fields.
 */
function CodeStep({
  label,
  submit,
  pending,
  onSubmit,
  error,
  form,
  withPassword = false,
}: {
  label: string;
  submit: string;
  pending: boolean;
  onSubmit: (values: { code: string; password: string }) => void;
  error: string | null;
  form: ReturnType<typeof Form.useForm<CodeForm>>[0];
  withPassword?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Form<CodeForm>
      form={form}
      layout="vertical"
      requiredMark={false}
      onFinish={(v) => onSubmit({ code: v.code.trim(), password: v.password ?? '' })}
      style={{ maxWidth: 360 }}
    >
      {error && (
        <Alert role="alert" type="error" title={error} showIcon style={{ marginBottom: 16 }} />
      )}
      {withPassword && <PasswordItem />}
      <Form.Item
        name="code"
        label={label}
        rules={[{ required: true, whitespace: true, message: t('validation.required', { label }) }]}
      >
        <Input autoComplete="one-time-code" spellCheck={false} />
      </Form.Item>
      <Typography.Paragraph type="secondary">
        {t('account.totp.signsOutOthers')}
      </Typography.Paragraph>
      <Button type="primary" htmlType="submit" loading={pending}>
        {submit}
      </Button>
    </Form>
  );
}

/**
 * Two-step sign-in: turn TOTP on (password, QR code, secret, first code, recovery codes once)
 * or off (password and a code). The password given to start is kept only until the first code
 * confirms; either change signs the user's other sessions out.
 */
export function TotpCard() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<CodeForm>();
  const [error, setError] = useState<string | null>(null);
  const [recovery, setRecovery] = useState<string[] | null>(null);
  const [password, setPassword] = useState('');
  const status = useTotpStatus();
  const enroll = useMutation({
    mutationFn: enrollTotp,
    onMutate: (current) => {
      setError(null);
      setPassword(current);
    },
    onSuccess: () => form.resetFields(),
    onError: (err) => setError(showServerErrors(form, err)),
  });
  // The change signed the other sessions out: the sessions list changed as well.
  const done = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: ['me', 'totp'] }),
      queryClient.invalidateQueries({ queryKey: ['me', 'sessions'] }),
    ]);
  const confirm = useMutation({
    mutationFn: (code: string) => confirmTotp({ code, password }),
    onMutate: () => setError(null),
    onSuccess: async (answer) => {
      setRecovery(answer.recovery_codes);
      setPassword('');
      enroll.reset();
      form.resetFields();
      await done();
    },
    onError: (err) => setError(showServerErrors(form, err)),
  });
  const disable = useMutation({
    mutationFn: disableTotp,
    onMutate: () => setError(null),
    onSuccess: async () => {
      form.resetFields();
      message.success(t('account.totp.disabled'));
      await done();
    },
    onError: (err) => setError(showServerErrors(form, err)),
  });

  let body;
  if (status.isPending) body = <LoadingState />;
  else if (status.isError)
    body = <ErrorState error={status.error} onRetry={() => void status.refetch()} />;
  else if (recovery) {
    body = (
      <Space orientation="vertical" style={{ width: '100%' }}>
        <Alert type="warning" showIcon title={t('account.totp.recoveryOnce')} />
        <List
          aria-label={t('account.totp.recoveryCodes')}
          size="small"
          bordered
          dataSource={recovery}
          renderItem={(code) => (
            <List.Item>
              <Typography.Text code data-testid="recovery-code">
                {code}
              </Typography.Text>
            </List.Item>
          )}
          style={{ maxWidth: 360 }}
        />
        <Space>
          <Typography.Text
            copyable={{
              text: recovery.join('\n'),
              tooltips: [t('account.totp.copy'), t('account.totp.copied')],
            }}
          >
            {t('account.totp.copy')}
          </Typography.Text>
          <Button type="primary" onClick={() => setRecovery(null)}>
            {t('account.totp.saved')}
          </Button>
        </Space>
      </Space>
    );
  } else if (status.data.enabled) {
    body = (
      <Space orientation="vertical" style={{ width: '100%' }}>
        <Typography.Paragraph>
          <Tag color="success">{t('account.totp.on')}</Tag> {t('account.totp.onText')}
        </Typography.Paragraph>
        <CodeStep
          form={form}
          label={t('account.totp.disableCode')}
          submit={t('account.totp.disable')}
          pending={disable.isPending}
          onSubmit={(values) => disable.mutate(values)}
          error={error}
          withPassword
        />
      </Space>
    );
  } else if (enroll.data) {
    const pending = enroll.data;
    body = (
      <Space orientation="vertical" style={{ width: '100%' }}>
        <Typography.Paragraph>{t('account.totp.scan')}</Typography.Paragraph>
        <QRCode value={pending.otpauth_uri} aria-label={t('account.totp.qr')} />
        <Typography.Paragraph>
          {t('account.totp.manual')}{' '}
          <Typography.Text code copyable data-testid="totp-secret">
            {pending.secret}
          </Typography.Text>
        </Typography.Paragraph>
        <CodeStep
          form={form}
          label={t('account.totp.firstCode')}
          submit={t('account.totp.confirm')}
          pending={confirm.isPending}
          onSubmit={({ code }) => confirm.mutate(code)}
          error={error}
        />
      </Space>
    );
  } else {
    body = (
      <Space orientation="vertical">
        {error && <Alert role="alert" type="error" title={error} showIcon />}
        <Typography.Paragraph>
          <Tag>{t('account.totp.off')}</Tag> {t('account.totp.offText')}
        </Typography.Paragraph>
        <Form<CodeForm>
          form={form}
          layout="vertical"
          requiredMark={false}
          onFinish={(v) => enroll.mutate(v.password)}
          style={{ maxWidth: 360 }}
        >
          <PasswordItem />
          <Button type="primary" htmlType="submit" loading={enroll.isPending}>
            {t('account.totp.enable')}
          </Button>
        </Form>
      </Space>
    );
  }
  return <Card title={t('account.totp.title')}>{body}</Card>;
}
