import { ConfigProvider } from 'antd';
import type { ReactNode } from 'react';
import { useThemeMode } from '../../../theme';

/**
 * WCAG AA contrast (4.5:1) for the admin pages' link and danger-link buttons in the dark
 * theme: antd's dark algorithm derives #1668dc and #dc4446 from the seeds, 3.6:1 and 4.4:1 on
 * the dark card (the axe audit of web/e2e/admin-identity.spec.ts finds them). Kept here, not in
 * the app's theme, until the console's dark tokens are settled for every page.
 */
const DARK_CONTRAST = { colorLink: '#4096ff', colorError: '#ff7875' };

/** The admin pages in the app's theme, with the dark theme's link colours readable. */
export function AdminTheme({ children }: { children: ReactNode }) {
  const mode = useThemeMode();
  if (mode !== 'dark') return <>{children}</>;
  return (
    <ConfigProvider
      theme={{
        token: DARK_CONTRAST,
        components: { Button: { colorLink: '#4096ff', colorLinkHover: '#69b1ff' } },
      }}
    >
      {children}
    </ConfigProvider>
  );
}
