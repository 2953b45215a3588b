import { Descriptions, Drawer, Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import type { User } from '../../../api/identity';
import { useAuth } from '../../../auth/AuthContext';
import { ResetPassword } from './ResetPassword';
import { UserAbsence } from './UserAbsence';
import { UserSessions } from './UserSessions';

/** One user's details and the actions about them: sessions, absence, a new password. */
export function UserDrawer({ user, onClose }: { user: User; onClose: () => void }) {
  const { t } = useTranslation('admin');
  const { can, me } = useAuth();
  const items = [
    { key: 'sessions', label: t('sessions.title'), children: <UserSessions user={user} /> },
    ...(me?.is_platform_admin
      ? [{ key: 'absence', label: t('absence.title'), children: <UserAbsence user={user} /> }]
      : []),
    ...(can('system:user:reset-password') && can('system:user:update')
      ? [{ key: 'password', label: t('password.title'), children: <ResetPassword user={user} /> }]
      : []),
  ];
  return (
    <Drawer
      open
      width={640}
      title={user.nickname || user.username}
      onClose={onClose}
      destroyOnHidden
    >
      <Descriptions size="small" column={1} style={{ marginBottom: 16 }}>
        <Descriptions.Item label={t('users.username')}>{user.username}</Descriptions.Item>
        <Descriptions.Item label={t('users.email')}>{user.email ?? '-'}</Descriptions.Item>
        <Descriptions.Item label={t('users.status')}>
          {t(`status.${user.status}`)}
        </Descriptions.Item>
      </Descriptions>
      <Tabs items={items} />
    </Drawer>
  );
}
