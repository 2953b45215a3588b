import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App as AntApp, ConfigProvider, theme } from 'antd';
import enUS from 'antd/locale/en_US';
import zhCN from 'antd/locale/zh_CN';
import { lazy, Suspense, useEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, type RouteObject, useLocation, useNavigate } from 'react-router';
import { setSignedOutHandler } from './api/client';
import { ApiError } from './api/errors';
import { AuthProvider, useAuth } from './auth/AuthContext';
import { adminRoutes } from './routes/admin/routes';
import { setRouteTable } from './layout/routeTable';
import { auditRoutes } from './routes/audit/routes';
import { approvalsRoutes } from './routes/approvals/routes';
import { monitorRoutes } from './routes/monitor/routes';
import { systemToolsRoutes } from './routes/system/tools-routes';
import { systemRoutes } from './routes/system/routes';
import { useThemeMode } from './theme';
import { PageLoading } from './components/PageLoading';

const AppLayout = lazy(() => import('./layout/AppLayout'));
const Login = lazy(() => import('./routes/auth/login/Login'));
const ChangePassword = lazy(() => import('./routes/account/password/ChangePassword'));
const Profile = lazy(() => import('./routes/account/profile/Profile'));
const Todo = lazy(() => import('./routes/approvals/todo/Todo'));
const Done = lazy(() => import('./routes/approvals/done/Done'));
const MyRequests = lazy(() => import('./routes/approvals/my/MyRequests'));
const CcInbox = lazy(() => import('./routes/approvals/cc/CcInbox'));
const Start = lazy(() => import('./routes/approvals/start/Start'));
const StartForm = lazy(() => import('./routes/approvals/start-form/StartForm'));
const InstanceDetail = lazy(() => import('./routes/approvals/instance/InstanceDetail'));
const TaskDetail = lazy(() => import('./routes/approvals/task/TaskDetail'));
const Definitions = lazy(() => import('./routes/designer/definitions/Definitions'));
const Designer = lazy(() => import('./routes/designer/editor/Designer'));
const ForgotPassword = lazy(() => import('./routes/auth/forgot-password/ForgotPassword'));
const ResetPassword = lazy(() => import('./routes/auth/reset-password/ResetPassword'));
const Dashboard = lazy(() => import('./routes/dashboard/Dashboard'));
const NotFound = lazy(() => import('./routes/errors/NotFound'));
const OAuthCallback = lazy(() => import('./routes/auth/oauth-callback/OAuthCallback'));

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // 4xx answers do not get better by asking again.
      retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 2,
      refetchOnWindowFocus: false,
    },
  },
});

/** Pages behind sign-in: back to sign-in with the page to return to; a forced password change first. */
function RequireAuth({ children }: { children: ReactNode }) {
  const { me, loading } = useAuth();
  const location = useLocation();
  if (loading) return <PageLoading />;
  if (!me) {
    const back = encodeURIComponent(location.pathname + location.search);
    return <Navigate to={`/login?redirect=${back}`} replace />;
  }
  if (me.must_change_password && location.pathname !== '/password') {
    return <Navigate to="/password" replace />;
  }
  return <>{children}</>;
}

function SignedOutRedirect() {
  const navigate = useNavigate();
  useEffect(() => {
    setSignedOutHandler(() => {
      queryClient.clear();
      const back = encodeURIComponent(location.pathname + location.search);
      void navigate(`/login?redirect=${back}`, { replace: true });
    });
  }, [navigate]);
  return null;
}

function Page({ children }: { children: ReactNode }) {
  return <Suspense fallback={<PageLoading />}>{children}</Suspense>;
}

export const routes: RouteObject[] = [
  {
    path: '/login',
    element: (
      <Page>
        <SignedOutRedirect />
        <Login />
      </Page>
    ),
  },
  {
    path: '/forgot-password',
    element: (
      <Page>
        <ForgotPassword />
      </Page>
    ),
  },
  {
    path: '/reset-password',
    element: (
      <Page>
        <ResetPassword />
      </Page>
    ),
  },
  {
    path: '/oauth/callback/:provider',
    element: (
      <Page>
        <OAuthCallback />
      </Page>
    ),
  },
  {
    path: '/',
    element: (
      <RequireAuth>
        <SignedOutRedirect />
        <Page>
          <AppLayout />
        </Page>
      </RequireAuth>
    ),
    children: [
      {
        index: true,
        element: (
          <Page>
            <Dashboard />
          </Page>
        ),
      },
      {
        path: 'password',
        element: (
          <Page>
            <ChangePassword />
          </Page>
        ),
      },
      {
        path: 'profile',
        element: (
          <Page>
            <Profile />
          </Page>
        ),
      },
      {
        path: 'todo',
        element: (
          <Page>
            <Todo />
          </Page>
        ),
      },
      {
        path: 'done',
        element: (
          <Page>
            <Done />
          </Page>
        ),
      },
      {
        path: 'my',
        element: (
          <Page>
            <MyRequests />
          </Page>
        ),
      },
      {
        path: 'cc',
        element: (
          <Page>
            <CcInbox />
          </Page>
        ),
      },
      {
        path: 'start',
        element: (
          <Page>
            <Start />
          </Page>
        ),
      },
      {
        path: 'start/:id',
        element: (
          <Page>
            <StartForm />
          </Page>
        ),
      },
      {
        path: 'instances/:id',
        element: (
          <Page>
            <InstanceDetail />
          </Page>
        ),
      },
      {
        path: 'tasks/:id',
        element: (
          <Page>
            <TaskDetail />
          </Page>
        ),
      },
      {
        path: 'designer',
        element: (
          <Page>
            <Definitions />
          </Page>
        ),
      },
      {
        path: 'designer/:id',
        element: (
          <Page>
            <Designer />
          </Page>
        ),
      },
      ...adminRoutes,
      ...approvalsRoutes,
      ...auditRoutes,
      ...monitorRoutes,
      ...systemToolsRoutes,
      ...systemRoutes,
      {
        path: '*',
        element: (
          <Page>
            <NotFound />
          </Page>
        ),
      },
    ],
  },
];
setRouteTable(routes);

/**
 * WCAG AA contrast (4.5:1) for text on and in the theme's colours (buttons, links, status tags)
 * and for secondary text: antd's light defaults (#1677ff, #52c41a, #faad14, #ff4d4f, 45 %
 * black) fall short, as the axe audit (web/e2e/a11y.spec.ts) finds. The tints behind status
 * text are given too: those derived from darker seeds are greyish.
 */
const LIGHT_TOKENS = {
  colorPrimary: '#0958d9',
  colorInfo: '#0958d9',
  colorLink: '#0958d9',
  colorSuccess: '#237804',
  colorWarning: '#ad4e00',
  colorError: '#cf1322',
  colorSuccessBg: '#f6ffed',
  colorSuccessBorder: '#b7eb8f',
  colorWarningBg: '#fff7e6',
  colorWarningBorder: '#ffd591',
  colorErrorBg: '#fff1f0',
  colorErrorBorder: '#ffa39e',
  colorInfoBg: '#e6f4ff',
  colorInfoBorder: '#91caff',
  colorTextSecondary: 'rgba(0,0,0,0.65)',
  colorTextDescription: 'rgba(0,0,0,0.65)',
  colorTextTertiary: 'rgba(0,0,0,0.6)',
  // Placeholders say what a field takes ("Search people by name", "Every flow"): readable too.
  colorTextPlaceholder: 'rgba(0,0,0,0.6)',
  borderRadius: 6,
};
/**
 * Dark theme, held to the same WCAG AA audit (web/e2e/frame.spec.ts). The dark algorithm's
 * primary and error colours (#1668dc, #dc4446) are under 4.5:1 as text on its #141414 ground, and
 * no blue or red passes both as text on that ground and behind white text. So the colours are
 * raised for text (links, the selected menu entry, tags, danger buttons), and what sits on a
 * filled primary or danger colour (button labels, badges, picked dates) is near-black instead
 * of white.
 */
const DARK_TOKENS = {
  colorPrimary: '#4096ff',
  colorInfo: '#4096ff',
  colorLink: '#4096ff',
  colorError: '#ff7875',
  colorTextSecondary: 'rgba(255,255,255,0.65)',
  colorTextDescription: 'rgba(255,255,255,0.65)',
  colorTextTertiary: 'rgba(255,255,255,0.6)',
  colorTextPlaceholder: 'rgba(255,255,255,0.6)',
  borderRadius: 6,
};
const ON_FILLED_DARK = '#141414';
const DARK_COMPONENTS = {
  // Link buttons take the raised link colour too (the algorithm gives them #1668dc, 3.6:1).
  Button: {
    primaryColor: ON_FILLED_DARK,
    dangerColor: ON_FILLED_DARK,
    colorLink: '#4096ff',
    colorLinkHover: '#69b1ff',
  },
  Badge: { colorTextLightSolid: ON_FILLED_DARK },
  DatePicker: { colorTextLightSolid: ON_FILLED_DARK },
  Radio: { buttonSolidCheckedColor: ON_FILLED_DARK },
  // The algorithm darkens the primary seed (#4096ff → #3983dc): on the tinted grounds of the
  // selected menu entry and the processing tag, the text takes the lighter blue.
  Menu: { itemSelectedColor: '#69b1ff' },
  Tag: { colorInfo: '#69b1ff' },
};

function Themed({ children }: { children: ReactNode }) {
  const mode = useThemeMode();
  const { i18n } = useTranslation();
  return (
    <ConfigProvider
      locale={i18n.language === 'zh-CN' ? zhCN : enUS}
      theme={{
        algorithm: mode === 'dark' ? theme.darkAlgorithm : theme.defaultAlgorithm,
        token: mode === 'dark' ? DARK_TOKENS : LIGHT_TOKENS,
        components: mode === 'dark' ? DARK_COMPONENTS : undefined,
        // antd's static stylesheet (imported in main.tsx) instead of styles computed in the
        // browser: half the blocking time of the first render (bench/RESULTS.md, Lighthouse).
        zeroRuntime: true,
      }}
    >
      <AntApp>{children}</AntApp>
    </ConfigProvider>
  );
}

/**
 * What every page sits in; `router` is the browser's router, or at build time the sign-in
 * page's static one (src/prerender.tsx), so both render the same tree.
 */
export function App({ router }: { router: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <Themed>
        <AuthProvider>{router}</AuthProvider>
      </Themed>
    </QueryClientProvider>
  );
}
