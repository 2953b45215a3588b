import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, List, Popconfirm, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { messageOf } from '../../../api/errors';
import {
  enabledProviders,
  linkedAccounts,
  providerLabel,
  startLink,
  unlink,
  type LinkedAccount,
} from '../../../api/account';
import { rememberAttempt } from '../../../auth/oauthState';
import { EmptyState, ErrorState, LoadingState } from '../../../components/states';

/**
 * The signed-in user's linked external accounts, each with an unlink (confirmed first), and a
 * link button per provider: the provider returns to the one callback page, which finishes a
 * link (not a sign-in) because this tab remembered the state's purpose.
 */
export function LinkedAccounts() {
  const { t } = useTranslation();
  const providers = useQuery({ queryKey: ['oauth-providers'], queryFn: enabledProviders });
  const enabled = providers.isSuccess && providers.data.length > 0;
  const links = useQuery({ queryKey: ['me', 'oauth'], queryFn: linkedAccounts, enabled });
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
        {links.isError ? (
          <ErrorState error={links.error} onRetry={() => void links.refetch()} />
        ) : (
          links.data &&
          links.data.length > 0 && <LinkList links={links.data} sso={t('account.oauth.sso')} />
        )}
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

function LinkList({ links, sso }: { links: LinkedAccount[]; sso: string }) {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: unlink,
    onSuccess: async () => {
      message.success(t('account.linked.unlinked'));
      await queryClient.invalidateQueries({ queryKey: ['me', 'oauth'] });
    },
    onError: (err) => message.error(messageOf(err)),
  });
  const date = (iso: string | null) => (iso ? new Date(iso).toLocaleDateString(i18n.language) : '');
  return (
    <List
      bordered
      dataSource={links}
      rowKey={(link) => `${link.provider}:${link.email ?? ''}:${link.created_at ?? ''}`}
      renderItem={(link) => {
        const provider = providerLabel(link.provider, sso);
        return (
          <List.Item
            actions={[
              <Popconfirm
                key="unlink"
                title={t('account.linked.unlinkConfirm', { provider })}
                onConfirm={() => remove.mutate(link.provider)}
              >
                <Button danger loading={remove.isPending && remove.variables === link.provider}>
                  {t('account.linked.unlink')}
                </Button>
              </Popconfirm>,
            ]}
          >
            <List.Item.Meta
              title={t('account.linked.linkedTo', { provider })}
              description={[
                link.email,
                link.created_at && t('account.linked.since', { date: date(link.created_at) }),
              ]
                .filter(Boolean)
                .join(' · ')}
            />
          </List.Item>
        );
      }}
    />
  );
}
