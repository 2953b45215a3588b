import { Table } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  identityCalls,
  useIdentityMutation,
  useUserSessions,
  type Session,
  type User,
} from '../../../api/identity';
import { EmptyState, ErrorState } from '../../../components/states';
import { ConfirmButton } from '../shared/ConfirmButton';
import { useNotify } from '../shared/useNotify';

const when = (v: string | null) => (v ? new Date(v).toLocaleString() : '-');

/** The user's signed-in sessions (device, place, last use), each of which can be ended. */
export function UserSessions({ user }: { user: User }) {
  const { t } = useTranslation('admin');
  const sessions = useUserSessions(user.id);
  const revoke = useIdentityMutation(identityCalls.revokeSession, ['sessions']);
  const notify = useNotify();
  if (sessions.isError)
    return <ErrorState error={sessions.error} onRetry={() => void sessions.refetch()} />;
  const device = (s: Session) =>
    [s.browser, s.os, s.device].filter(Boolean).join(' · ') || s.user_agent || '-';
  return (
    <Table<Session>
      rowKey="id"
      size="small"
      loading={sessions.isPending}
      dataSource={sessions.data ?? []}
      pagination={false}
      locale={{ emptyText: <EmptyState text={t('sessions.empty')} /> }}
      columns={[
        { title: t('sessions.device'), key: 'device', render: (_, s) => device(s) },
        {
          title: t('sessions.ip'),
          key: 'ip',
          render: (_, s) => [s.ip, s.location].filter(Boolean).join(' · ') || '-',
        },
        { title: t('sessions.lastUsed'), key: 'last', render: (_, s) => when(s.last_used_at) },
        {
          title: t('common.actions'),
          key: 'revoke',
          render: (_, s) => (
            <ConfirmButton
              question={t('sessions.revokeQuestion', {
                name: user.nickname || user.username,
                device: device(s),
              })}
              action={t('sessions.revoke')}
              onConfirm={() => notify(() => revoke.mutateAsync(s.id), t('sessions.revoked'))}
            >
              {t('sessions.revoke')}
            </ConfirmButton>
          ),
        },
      ]}
    />
  );
}
