import { MoonOutlined, SunOutlined, UserOutlined } from '@ant-design/icons';
import { Button, Dropdown, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useAuth } from '../auth/AuthContext';
import { LANGUAGES, setLanguage, type Language } from '../i18n';
import { setThemeMode, useThemeMode } from '../theme';
import { InboxBell } from './InboxBell';

/** The header's right side: the inbox's bell (asked only while `active`), language, theme and the user's menu (profile, password, sign out). */
export function HeaderControls({ compact, active }: { compact: boolean; active: boolean }) {
  const { t, i18n } = useTranslation();
  const { me, signOut } = useAuth();
  const navigate = useNavigate();
  const mode = useThemeMode();
  return (
    <>
      <InboxBell enabled={active} />
      <Select<Language>
        aria-label={t('app.language')}
        size="small"
        value={i18n.language as Language}
        onChange={setLanguage}
        options={LANGUAGES.map((l) => ({ value: l, label: t(`language.${l}`) }))}
        style={{ width: 110 }}
        data-testid="language-switch"
      />
      <Button
        size="small"
        aria-label={mode === 'dark' ? t('app.lightTheme') : t('app.darkTheme')}
        icon={mode === 'dark' ? <SunOutlined /> : <MoonOutlined />}
        onClick={() => setThemeMode(mode === 'dark' ? 'light' : 'dark')}
      />
      <Dropdown
        menu={{
          items: [
            { key: 'profile', label: t('nav.profile') },
            { key: 'password', label: t('nav.password') },
            { type: 'divider' },
            { key: 'logout', label: t('nav.logout') },
          ],
          onClick: ({ key }) => {
            if (key === 'logout') void signOut().then(() => navigate('/login'));
            else void navigate(`/${key}`);
          },
        }}
      >
        <Button
          size="small"
          icon={<UserOutlined />}
          data-testid="user-menu"
          style={compact ? { maxWidth: 120 } : undefined}
        >
          <span style={{ overflow: 'hidden', textOverflow: 'ellipsis' }}>
            {me?.nickname || me?.username}
          </span>
        </Button>
      </Dropdown>
    </>
  );
}
