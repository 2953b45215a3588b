import { Alert, App, Button, Form, Result, Spin } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { ApiError, messageOf } from '../../../api/errors';
import { useAuth } from '../../../auth/AuthContext';
import { finish, type TokenAnswer } from '../../../api/account';
import { asksForTotp, TotpLoginField } from '../login/LoginExtras';
import { takeAttempt, type Attempt } from '../../../auth/oauthState';
import { PublicCard } from '../PublicCard';

/** No platform user has linked this external account (the user links it from the profile). */
const NOT_LINKED = 40105;

/** States already handed to the server: a state works once (StrictMode runs effects twice). */
const handled = new Set<string>();

interface Failure {
  text: string;
  purpose: Attempt['purpose'];
}

type CallbackBody = { code: string; state: string; iss?: string };

/**
 * Where a provider sends the browser back (`/oauth/callback/:provider?code&state&iss`): posts
 * what it brought to the login callback, or to the link callback when this tab started the
 * attempt from the profile, then goes on; a failure is shown with a way back. A user with TOTP
 * on is asked for the code, as on the sign-in page, and the same code and state go again with it.
 */
export default function OAuthCallback() {
  const { t } = useTranslation();
  const { provider = '' } = useParams();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const { signIn } = useAuth();
  const { message } = App.useApp();
  const [failure, setFailure] = useState<Failure | null>(null);
  const [totp, setTotp] = useState<{ body: CallbackBody; back: string } | null>(null);
  const [totpError, setTotpError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);

  const signedIn = useCallback(
    async (answer: unknown, back: string) => {
      await signIn(answer as TokenAnswer);
      message.success(t('login.welcome'));
      await navigate(back, { replace: true });
    },
    [signIn, message, t, navigate],
  );

  const failureText = useCallback(
    (err: unknown) =>
      err instanceof ApiError && err.status === 409
        ? t('account.linked.elsewhere')
        : err instanceof ApiError && err.code === NOT_LINKED
          ? t('account.oauth.notLinked')
          : messageOf(err),
    [t],
  );

  const sendCode = async (values: { totp_code: string }) => {
    if (!totp) return;
    setSending(true);
    try {
      const body = { ...totp.body, totp_code: values.totp_code.trim() };
      await signedIn(await finish(provider, 'login', body), totp.back);
    } catch (err) {
      // A wrong code may be tried again (the server holds the state); anything else ends here.
      if (err instanceof ApiError && (err.code === 40103 || asksForTotp(err))) {
        setTotpError(messageOf(err));
      } else {
        setTotp(null);
        setFailure({ text: failureText(err), purpose: 'login' });
      }
    } finally {
      setSending(false);
    }
  };

  useEffect(() => {
    const state = params.get('state') ?? '';
    const code = params.get('code') ?? '';
    if (handled.has(state)) return;
    handled.add(state);
    const attempt = takeAttempt(state) ?? { purpose: 'login' as const, back: '/todo' };
    const providerError = params.get('error');
    if (providerError || !code || !state) {
      setFailure({
        text: params.get('error_description') ?? providerError ?? t('account.oauth.incomplete'),
        purpose: attempt.purpose,
      });
      return;
    }
    const iss = params.get('iss');
    const body = { code, state, ...(iss ? { iss } : {}) };
    finish(provider, attempt.purpose, body)
      .then(async (answer) => {
        if (attempt.purpose === 'link') {
          message.success(t('account.linked.done'));
          await navigate('/profile', { replace: true });
        } else {
          await signedIn(answer, attempt.back);
        }
      })
      .catch((err: unknown) => {
        if (attempt.purpose === 'login' && asksForTotp(err)) {
          setTotp({ body, back: attempt.back });
          return;
        }
        setFailure({ text: failureText(err), purpose: attempt.purpose });
      });
  }, [params, provider, navigate, message, t, signedIn, failureText]);

  return (
    <PublicCard title={t('account.oauth.title')}>
      {failure ? (
        <Result
          status="error"
          title={
            failure.purpose === 'link' ? t('account.linked.failed') : t('account.oauth.failed')
          }
          subTitle={<span role="alert">{failure.text}</span>}
          extra={
            failure.purpose === 'link' ? (
              <Button type="primary" onClick={() => void navigate('/profile')}>
                {t('account.oauth.backToProfile')}
              </Button>
            ) : (
              <Button type="primary" onClick={() => void navigate('/login')}>
                {t('account.backToSignIn')}
              </Button>
            )
          }
        />
      ) : totp ? (
        <Form<{ totp_code: string }> layout="vertical" onFinish={(v) => void sendCode(v)}>
          {totpError && (
            <Alert role="alert" type="error" title={totpError} style={{ marginBottom: 16 }} />
          )}
          <TotpLoginField />
          <Button type="primary" htmlType="submit" block loading={sending}>
            {t('login.submit')}
          </Button>
        </Form>
      ) : (
        <Spin tip={t('account.oauth.working')}>
          <div style={{ minHeight: 120 }} />
        </Spin>
      )}
    </PublicCard>
  );
}
