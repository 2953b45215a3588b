import { useMutation, useQuery } from '@tanstack/react-query';
import { Alert, App, Button, Divider, Form, Input, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { ApiError, messageOf } from '../../../api/errors';
import { enabledProviders, providerLabel, startLogin } from '../../../api/account';
import { rememberAttempt } from '../../../auth/oauthState';

/** The sign-in answer of a user with TOTP on who sent no code: 40001 on `totp_code`. */
export function asksForTotp(error: unknown): boolean {
  return (
    error instanceof ApiError &&
    error.code === 40001 &&
    error.fields.some((f) => f.field === 'totp_code')
  );
}

/** The second step of signing in: the authenticator's code, or one of the recovery codes. */
export function TotpLoginField() {
  const { t } = useTranslation();
  return (
    <>
      <Alert
        role="status"
        type="info"
        showIcon
        title={t('account.totp.loginAsk')}
        style={{ marginBottom: 16 }}
      />
      <Form.Item
        name="totp_code"
        label={t('account.totp.loginCode')}
        rules={[
          {
            required: true,
            whitespace: true,
            message: t('validation.required', { label: t('account.totp.loginCode') }),
          },
        ]}
      >
        <Input autoComplete="one-time-code" autoFocus spellCheck={false} />
      </Form.Item>
    </>
  );
}

/** A note left by the page that sent the user here (a password just reset). */
export function AccountNotice() {
  const { t } = useTranslation();
  const state = useLocation().state as { accountNotice?: string } | null;
  if (state?.accountNotice !== 'reset') return null;
  return (
    <Alert
      role="status"
      type="success"
      showIcon
      title={t('account.reset.done')}
      style={{ marginBottom: 16 }}
    />
  );
}

/** Below the sign-in form: the forgot-password link and one button per external provider. */
export function LoginLinks({ back }: { back: string }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const providers = useQuery({ queryKey: ['oauth-providers'], queryFn: enabledProviders });
  const start = useMutation({
    mutationFn: startLogin,
    onSuccess: (answer) => {
      rememberAttempt(answer.state, { purpose: 'login', back });
      window.location.assign(answer.authorization_url);
    },
    onError: (err) => message.error(messageOf(err)),
  });
  const names = providers.data ?? [];
  return (
    <>
      <div style={{ marginTop: 12, textAlign: 'center' }}>
        <Link to="/forgot-password">{t('account.forgot.link')}</Link>
      </div>
      {names.length > 0 && (
        <>
          <Divider plain>{t('account.oauth.or')}</Divider>
          <Space orientation="vertical" style={{ width: '100%' }}>
            {names.map((name) => (
              <Button
                key={name}
                block
                loading={start.isPending && start.variables === name}
                onClick={() => start.mutate(name)}
              >
                {t('account.oauth.signInWith', {
                  provider: providerLabel(name, t('account.oauth.sso')),
                })}
              </Button>
            ))}
          </Space>
        </>
      )}
    </>
  );
}
