import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { useMutation } from '@tanstack/react-query';
import { Alert, App, Button, Card, Form, Input, Segmented, Space, Typography } from 'antd';
import { useLayoutEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { fetchCaptcha, passwordLogin, type Captcha } from '../../../api/signIn';
import { ApiError } from '../../../api/errors';
import { useAuth } from '../../../auth/AuthContext';
import { showServerErrors } from '../../../form/serverErrors';
import { LANGUAGES, setLanguage, type Language } from '../../../i18n';
import { takeOverEarlyInput } from './earlySubmit';
import { AccountNotice, asksForTotp, LoginLinks, TotpLoginField } from './LoginExtras';

interface LoginForm {
  username: string;
  password: string;
  tenant_code?: string;
  captcha?: string;
  totp_code?: string;
}

/** Only a path inside the console: never an absolute URL another site could supply. */
function safeRedirect(value: string | null): string {
  return value && value.startsWith('/') && !value.startsWith('//') ? value : '/';
}

export default function Login() {
  const { t, i18n } = useTranslation();
  const [form] = Form.useForm<LoginForm>();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const { signIn } = useAuth();
  const { message } = App.useApp();
  const [captcha, setCaptcha] = useState<Captcha | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [totp, setTotp] = useState(false);

  const loadCaptcha = async () => {
    setCaptcha(await fetchCaptcha());
    form.setFieldValue('captcha', '');
  };

  const login = useMutation({
    mutationFn: async (values: LoginForm) => {
      const body = {
        username: values.username,
        password: values.password,
        ...(values.tenant_code ? { tenant_code: values.tenant_code } : {}),
        ...(captcha ? { captcha_id: captcha.captcha_id, captcha: values.captcha ?? '' } : {}),
        ...(totp && values.totp_code ? { totp_code: values.totp_code.trim() } : {}),
      };
      return passwordLogin(body);
    },
    onSuccess: async (result) => {
      await signIn(result);
      message.success(t('login.welcome'));
      await navigate(safeRedirect(params.get('redirect')), { replace: true });
    },
    onError: async (err) => {
      // The server asks for a captcha (40001 on `captcha`) after repeated failures.
      const wantsCaptcha = err instanceof ApiError && err.fields.some((f) => f.field === 'captcha');
      if (wantsCaptcha || captcha) await loadCaptcha().catch(() => undefined);
      // TOTP on and no code sent yet: ask for it, no error (40001 on `totp_code`).
      if (!totp && asksForTotp(err)) {
        setTotp(true);
        setError(null);
        return;
      }
      setError(showServerErrors(form, err));
    },
  });

  // In the commit that hydrates the page, so no submission falls between held and sent.
  useLayoutEffect(() => {
    takeOverEarlyInput(form, ['username', 'password', 'tenant_code']);
  }, [form]);

  return (
    <div
      style={{
        minHeight: '100vh',
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        padding: 16,
      }}
    >
      <Card style={{ width: 380, maxWidth: '100%' }}>
        <Space style={{ width: '100%', justifyContent: 'space-between' }}>
          <Typography.Title level={3} style={{ margin: 0 }}>
            {t('app.name')}
          </Typography.Title>
          {/* Two choices: a segmented control, not a Select (23 KB gzip off the first page). */}
          <Segmented<Language>
            aria-label={t('app.language')}
            size="small"
            value={i18n.language as Language}
            onChange={setLanguage}
            options={LANGUAGES.map((l) => ({ value: l, label: t(`language.${l}`) }))}
            data-testid="language-switch"
          />
        </Space>
        <Typography.Paragraph type="secondary">{t('login.subtitle')}</Typography.Paragraph>
        <AccountNotice />
        {error && (
          <Alert role="alert" type="error" title={error} style={{ marginBottom: 16 }} showIcon />
        )}
        <Form<LoginForm>
          form={form}
          layout="vertical"
          onFinish={(v) => login.mutate(v)}
          requiredMark={false}
        >
          <Form.Item
            name="username"
            label={t('login.username')}
            rules={[
              { required: true, message: t('validation.required', { label: t('login.username') }) },
            ]}
          >
            <Input prefix={<UserOutlined />} autoComplete="username" autoFocus />
          </Form.Item>
          <Form.Item
            name="password"
            label={t('login.password')}
            rules={[
              { required: true, message: t('validation.required', { label: t('login.password') }) },
            ]}
          >
            <Input.Password prefix={<LockOutlined />} autoComplete="current-password" />
          </Form.Item>
          <Form.Item name="tenant_code" label={t('login.tenant')} tooltip={t('login.tenantHint')}>
            <Input placeholder="default" />
          </Form.Item>
          {totp && <TotpLoginField />}
          {captcha && (
            <Form.Item label={t('login.captcha')} required>
              <Space.Compact style={{ width: '100%' }}>
                <Form.Item
                  name="captcha"
                  noStyle
                  rules={[
                    {
                      required: true,
                      message: t('validation.required', { label: t('login.captcha') }),
                    },
                  ]}
                >
                  <Input aria-label={t('login.captcha')} autoComplete="off" />
                </Form.Item>
                <Button
                  onClick={() => void loadCaptcha()}
                  aria-label={t('login.newCaptcha')}
                  style={{ padding: 0, height: 'auto' }}
                >
                  <img src={captcha.image} alt={t('login.captchaImage')} height={32} />
                </Button>
              </Space.Compact>
            </Form.Item>
          )}
          <Button type="primary" htmlType="submit" block loading={login.isPending}>
            {t('login.submit')}
          </Button>
        </Form>
        <LoginLinks back={safeRedirect(params.get('redirect'))} />
      </Card>
    </div>
  );
}
