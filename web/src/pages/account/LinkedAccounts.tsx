import { useMutation, useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { messageOf } from '../../api/errors';
import { enabledProviders, providerLabel, startLink } from './accountApi';
import { rememberAttempt } from './oauthState';
import { EmptyState, ErrorState, LoadingState } from '../states';

/**
 * Links an external account to the signed-in user: the provider returns to the one callback
 * page, which finishes a link (not a sign-in) because this tab remembered the state's purpose.
 */
export function LinkedAccounts() {
  const { t } = useTranslation();
  const providers = useQuery({ queryKey: ['oauth-providers'], queryFn: enabledProviders });
  const link = useMutation({
    mutationFn: startLink,
    onSuccess: (answer) => {
      rememberAttempt(answer.state, { purpose: 'link', back: '/profile' });
      window.location.assign(answer.authorization_url);
    },
  });
  let body;
  if (providers.isPending) body = <LoadingState />;
  else if (providers.isError)
    body = <ErrorState error={providers.error} onRetry={() => void providers.refetch()} />;
  else if (providers.data.length === 0) body = <EmptyState text={t('account.linked.none')} />;
  else
    body = (
      <Space orientation="vertical">
        <Typography.Paragraph>{t('account.linked.intro')}</Typography.Paragraph>
        {link.isError && <Alert role="alert" type="error" showIcon title={messageOf(link.error)} />}
        <Space wrap>
          {providers.data.map((name) => (
            <Button
              key={name}
              loading={link.isPending && link.variables === name}
              onClick={() => link.mutate(name)}
            >
              {t('account.linked.link', { provider: providerLabel(name, t('account.oauth.sso')) })}
            </Button>
          ))}
        </Space>
      </Space>
    );
  return <Card title={t('account.linked.title')}>{body}</Card>;
}
