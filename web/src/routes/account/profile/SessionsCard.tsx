import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Popconfirm, Table, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { endSession, sessionsKey, useMySessions, type Session } from '../../../api/account';
import { messageOf } from '../../../api/errors';
import { useAuth } from '../../../auth/AuthContext';
import { EmptyState, ErrorState } from '../../../components/states';

/**
 * The caller's signed-in sessions, each with a sign-out (confirmed first). Ending the current one
 * signs this console out: it goes through the sign-out call, which ends the same session.
 */
export function SessionsCard() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const { signOut } = useAuth();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const sessions = useMySessions();
  const end = useMutation({
    mutationFn: async (session: Session) => {
      if (session.current) await signOut();
      else await endSession(session.id);
      return session;
    },
    onSuccess: async (session) => {
      message.success(t('account.sessions.ended'));
      if (session.current) await navigate('/login', { replace: true });
      else await queryClient.invalidateQueries({ queryKey: sessionsKey });
    },
    onError: (err) => message.error(messageOf(err)),
  });
  const when = (v: string) => new Date(v).toLocaleString();
  return (
    <Card title={t('account.sessions.title')}>
      {sessions.isError ? (
        <ErrorState error={sessions.error} onRetry={() => void sessions.refetch()} />
      ) : (
        <Table<Session>
          rowKey="id"
          size="small"
          loading={sessions.isPending}
          dataSource={sessions.data ?? []}
          locale={{ emptyText: <EmptyState text={t('account.sessions.empty')} /> }}
          pagination={false}
          scroll={{ x: 820 }}
          columns={[
            {
              title: t('account.sessions.device'),
              render: (_, r) => (
                <>
                  {[r.browser, r.os, r.device].filter(Boolean).join(' · ') ||
                    t('account.sessions.unknownDevice')}{' '}
                  {r.current && <Tag color="processing">{t('account.sessions.current')}</Tag>}
                </>
              ),
            },
            { title: t('profile.ip'), dataIndex: 'ip' },
            {
              title: t('profile.location'),
              dataIndex: 'location',
              render: (v: string | null) => v ?? '-',
            },
            { title: t('account.sessions.created'), dataIndex: 'created_at', render: when },
            { title: t('account.sessions.lastUsed'), dataIndex: 'last_used_at', render: when },
            {
              title: t('account.sessions.actions'),
              render: (_, r) => (
                <Popconfirm
                  title={
                    r.current ? t('account.sessions.confirmCurrent') : t('account.sessions.confirm')
                  }
                  okText={t('account.sessions.signOut')}
                  cancelText={t('common.cancel')}
                  onConfirm={() => end.mutate(r)}
                >
                  <Button
                    size="small"
                    danger
                    loading={end.isPending && end.variables?.id === r.id}
                    aria-label={t('account.sessions.signOutOf', { id: r.id })}
                  >
                    {t('account.sessions.signOut')}
                  </Button>
                </Popconfirm>
              ),
            },
          ]}
        />
      )}
    </Card>
  );
}
