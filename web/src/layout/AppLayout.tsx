import {
  AuditOutlined,
  CheckSquareOutlined,
  FileDoneOutlined,
  FormOutlined,
  MailOutlined,
  MoonOutlined,
  PartitionOutlined,
  PlusCircleOutlined,
  SunOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Badge, Button, Dropdown, Grid, Layout, Menu, Select, Space, theme } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { bpmKeys, fetchCcUnread, fetchTodoCount } from '../api/bpm';
import { useAuth } from '../auth/AuthContext';
import { LANGUAGES, setLanguage, type Language } from '../i18n';
import { setThemeMode, useThemeMode } from '../theme';

const POLL_MS = 30_000;

export default function AppLayout() {
  const { t, i18n } = useTranslation();
  const { me, can, signOut } = useAuth();
  const navigate = useNavigate();
  const location = useLocation();
  const mode = useThemeMode();
  const screens = Grid.useBreakpoint();
  const [collapsed, setCollapsed] = useState(false);
  const { token } = theme.useToken();

  const todo = useQuery({
    queryKey: bpmKeys.todoCount,
    queryFn: fetchTodoCount,
    refetchInterval: POLL_MS,
  });
  const cc = useQuery({
    queryKey: bpmKeys.ccUnread,
    queryFn: fetchCcUnread,
    refetchInterval: POLL_MS,
  });

  // The count of todos in the browser tab, so a waiting approval shows from another tab.
  useEffect(() => {
    const n = todo.data ?? 0;
    document.title = n > 0 ? `(${n}) ${t('app.name')}` : t('app.name');
  }, [todo.data, t]);

  const items = [
    {
      key: '/todo',
      icon: <CheckSquareOutlined />,
      label: (
        <Badge count={todo.data ?? 0} offset={[12, 0]} size="small">
          {t('nav.todo')}
        </Badge>
      ),
    },
    { key: '/done', icon: <FileDoneOutlined />, label: t('nav.done') },
    { key: '/my', icon: <AuditOutlined />, label: t('nav.my') },
    {
      key: '/cc',
      icon: <MailOutlined />,
      label: (
        <Badge count={cc.data ?? 0} offset={[12, 0]} size="small">
          {t('nav.cc')}
        </Badge>
      ),
    },
    { key: '/start', icon: <PlusCircleOutlined />, label: t('nav.start') },
    ...(can('bpm:definition:list')
      ? [{ key: '/designer', icon: <PartitionOutlined />, label: t('nav.designer') }]
      : []),
  ];
  const selected = items.find((i) => location.pathname.startsWith(i.key))?.key ?? '';
  const phone = !screens.md;

  return (
    <Layout style={{ minHeight: '100vh' }}>
      <Layout.Sider
        breakpoint="md"
        collapsedWidth={phone ? 0 : 64}
        // On a phone the menu button sits in the header's empty left side, not over the page.
        zeroWidthTriggerStyle={{ top: 12 }}
        collapsible
        collapsed={collapsed}
        onCollapse={setCollapsed}
        theme={mode}
        width={208}
      >
        <div
          style={{
            height: 48,
            display: 'flex',
            alignItems: 'center',
            justifyContent: 'center',
            fontWeight: 600,
            color: token.colorPrimary,
          }}
        >
          <FormOutlined style={{ marginRight: collapsed ? 0 : 8 }} />
          {!collapsed && t('app.name')}
        </div>
        <nav aria-label={t('nav.label')}>
          <Menu
            mode="inline"
            theme={mode}
            selectedKeys={[selected]}
            items={items}
            onClick={({ key }) => {
              void navigate(key);
              if (phone) setCollapsed(true);
            }}
          />
        </nav>
      </Layout.Sider>
      <Layout>
        <Layout.Header
          style={{
            background: token.colorBgContainer,
            padding: '0 16px',
            display: 'flex',
            justifyContent: 'flex-end',
            alignItems: 'center',
          }}
        >
          <Space wrap>
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
              <Button size="small" icon={<UserOutlined />} data-testid="user-menu">
                {me?.nickname || me?.username}
              </Button>
            </Dropdown>
          </Space>
        </Layout.Header>
        <Layout.Content style={{ margin: phone ? 8 : 16 }}>
          {/* Layout.Content is the page's one <main> landmark. */}
          <Outlet />
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
