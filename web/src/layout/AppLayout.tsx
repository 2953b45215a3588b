import { FormOutlined, MenuOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Drawer, Layout, Space, theme } from 'antd';
import { memo, useCallback, useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation } from 'react-router';
// Every antd component's precomputed styles (vite.antd-css.ts): the signed-out pages load only
// their share.
import 'virtual:antd.css';
import { bpmKeys, fetchCcUnread, fetchTodoCount } from '../api/bpm';
import { useMyMenus } from '../api/menus';
import { mayUse } from '../auth/access';
import { useDeferredAnswer } from '../components/deferredAnswer';
import { useAuth, type Me } from '../auth/AuthContext';
import Forbidden from '../routes/errors/Forbidden';
import { HeaderControls } from './HeaderControls';
import { NavMenu } from './NavMenu';

const POLL_MS = 30_000;

/** antd's `md` breakpoint: from here up the side menu, below it the drawer. */
const WIDE = '(min-width: 768px)';

/**
 * Whether the window is wide enough for the side menu, right from the first render. antd's
 * Grid.useBreakpoint answers nothing on the first render and the breakpoints in a layout
 * effect: the whole frame rendered twice, the second time synchronously (one long task), and on
 * a wide screen the first time as the phone's frame.
 */
function useWide(): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const query = window.matchMedia(WIDE);
      query.addEventListener('change', onChange);
      return () => query.removeEventListener('change', onChange);
    },
    () => window.matchMedia(WIDE).matches,
  );
}

/** The product's name at the top of the navigation. */
function Brand({ collapsed }: { collapsed: boolean }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  return (
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
  );
}

/** The navigation's counts: open tasks (also in the browser tab's title), unread copies. */
function useCounts(active: boolean) {
  const todo = useQuery({
    queryKey: bpmKeys.todoCount,
    queryFn: fetchTodoCount,
    refetchInterval: POLL_MS,
    enabled: active,
  });
  const cc = useQuery({
    queryKey: bpmKeys.ccUnread,
    queryFn: fetchCcUnread,
    refetchInterval: POLL_MS,
    enabled: active,
  });
  return useMemo(() => ({ todo: todo.data, cc: cc.data }), [todo.data, cc.data]);
}

/**
 * What the frame asks and polls (the counts, the menu tree), kept apart from it: each answer
 * re-renders this, which renders nothing, instead of the whole frame synchronously. Also the
 * browser tab's title, which counts the open tasks so a waiting approval shows from another tab.
 */
function Polls({ active }: { active: boolean }) {
  const { t } = useTranslation();
  const { todo } = useCounts(active);
  useMyMenus(active);
  useEffect(() => {
    const n = todo ?? 0;
    document.title = n > 0 ? `(${n}) ${t('app.name')}` : t('app.name');
  }, [todo, t]);
  return null;
}

/**
 * The navigation, with the counts and the menu tree from the same queries: their answers
 * re-render it alone and in a transition (the full menu tree is the frame's heaviest part).
 */
const Navigation = memo(function Navigation({
  me,
  onNavigate,
}: {
  me: Me;
  onNavigate?: () => void;
}) {
  const { t } = useTranslation();
  const counts = useDeferredAnswer(useCounts(true));
  const tree = useDeferredAnswer(useMyMenus(true).data);
  const badges = useMemo(() => ({ '/todo': counts.todo, '/cc': counts.cc }), [counts]);
  return (
    <nav aria-label={t('nav.label')}>
      <NavMenu tree={tree} me={me} badges={badges} onNavigate={onNavigate} />
    </nav>
  );
});

/**
 * The signed-in frame: navigation (a side menu, on a phone a drawer opened from the header),
 * the header's controls, and the page, or the 403 page when the caller may not use it. While a
 * password change is required every other call answers 403, so nothing is asked or polled.
 */
export default function AppLayout() {
  const { t } = useTranslation();
  const { me } = useAuth();
  const location = useLocation();
  const wide = useWide();
  const [collapsed, setCollapsed] = useState(false);
  const [drawer, setDrawer] = useState(false);
  const { token } = theme.useToken();
  const active = !!me && !me.must_change_password;

  const closeDrawer = useCallback(() => setDrawer(false), []);

  if (!me) return null;
  const phone = !wide;

  return (
    <Layout style={{ minHeight: '100vh' }}>
      <Polls active={active} />
      {!phone && (
        // The light sider follows the algorithm: dark grey in the dark theme, never antd's navy.
        <Layout.Sider
          collapsible
          collapsed={collapsed}
          onCollapse={setCollapsed}
          theme="light"
          width={208}
          collapsedWidth={64}
          style={{ borderInlineEnd: `1px solid ${token.colorSplit}` }}
        >
          <Brand collapsed={collapsed} />
          {active && <Navigation me={me} />}
        </Layout.Sider>
      )}
      {phone && (
        <Drawer
          open={drawer}
          onClose={() => setDrawer(false)}
          placement="left"
          size={260}
          title={t('app.name')}
          styles={{ body: { padding: 0 } }}
        >
          {active && <Navigation me={me} onNavigate={closeDrawer} />}
        </Drawer>
      )}
      <Layout>
        <Layout.Header
          style={{
            background: token.colorBgContainer,
            borderBottom: `1px solid ${token.colorSplit}`,
            padding: phone ? '8px 8px' : '0 16px',
            height: 'auto',
            minHeight: 56,
            lineHeight: 'normal',
            display: 'flex',
            flexWrap: 'wrap',
            gap: 8,
            justifyContent: 'space-between',
            alignItems: 'center',
          }}
        >
          {phone ? (
            <Button
              icon={<MenuOutlined />}
              aria-label={t('shell.menu')}
              aria-expanded={drawer}
              onClick={() => setDrawer(true)}
              data-testid="nav-drawer-button"
              disabled={!active}
            />
          ) : (
            <span />
          )}
          <Space wrap size={8} style={{ justifyContent: 'flex-end' }}>
            <HeaderControls compact={phone} active={active} />
          </Space>
        </Layout.Header>
        <Layout.Content style={{ margin: phone ? 8 : 16, minWidth: 0 }}>
          {/* Layout.Content is the page's one <main> landmark. */}
          {mayUse(me, location.pathname) ? <Outlet /> : <Forbidden />}
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
