import { App, Button, Result, Spin } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { ApiError, messageOf } from '../../api/errors';
import { useAuth } from '../../auth/AuthContext';
import { finish, type TokenAnswer } from './accountApi';
import { takeAttempt, type Attempt } from './oauthState';
import { PublicCard } from './PublicCard';

/** States already handed to the server: a state works once (StrictMode runs effects twice). */
const handled = new Set<string>();

interface Failure {
  text: string;
  purpose: Attempt['purpose'];
}

/**
 * Where a provider sends the browser back (`/oauth/callback/:provider?code&state&iss`): posts
 * what it brought to the login callback, or to the link callback when this tab started the
 * attempt from the profile, then goes on; a failure is shown with a way back.
 */
export default function OAuthCallback() {
  const { t } = useTranslation();
  const { provider = '' } = useParams();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const { signIn } = useAuth();
  const { message } = App.useApp();
  const [failure, setFailure] = useState<Failure | null>(null);

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
          await signIn(answer as TokenAnswer);
          message.success(t('login.welcome'));
          await navigate(attempt.back, { replace: true });
        }
      })
      .catch((err: unknown) => {
        const text =
          err instanceof ApiError && err.status === 409
            ? t('account.linked.elsewhere')
            : messageOf(err);
        setFailure({ text, purpose: attempt.purpose });
      });
  }, [params, provider, navigate, signIn, message, t]);

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
      ) : (
        <Spin tip={t('account.oauth.working')}>
          <div style={{ minHeight: 120 }} />
        </Spin>
      )}
    </PublicCard>
  );
}
