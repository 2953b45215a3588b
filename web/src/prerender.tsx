/**
 * The sign-in page rendered ahead, at build time (scripts/prerender.mjs runs this module's
 * server build): its markup in each language and antd's theme variables in each theme, for
 * login.html to show before the console's script arrives, which then hydrates it (main.tsx).
 */
import { createCache, extractStyle, StyleProvider } from '@ant-design/cssinjs';
import { StrictMode } from 'react';
import { prerenderToNodeStream } from 'react-dom/static';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router';
import { App, routes } from './App';
import i18n, { type Language } from './i18n';
import { setPrerenderThemeMode, type ThemeMode } from './theme';

export interface Prerendered {
  /** What goes in `#root`. */
  markup: string;
  /** antd's `<style>` elements for the page (its tokens as CSS variables). */
  styles: string;
}

/** The page at `path` (a signed-out page without data loaders) in `language` and `mode`. */
export async function prerender(
  path: string,
  language: Language,
  mode: ThemeMode,
): Promise<Prerendered> {
  await i18n.changeLanguage(language);
  setPrerenderThemeMode(mode);
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request(`http://localhost${path}`));
  if (context instanceof Response) throw new Error(`${path} answered a redirect`);
  const router = createStaticRouter(handler.dataRoutes, context);
  const cache = createCache();
  // The same tree as main.tsx's, with the static router; StyleProvider only collects styles.
  const { prelude } = await prerenderToNodeStream(
    <StyleProvider cache={cache}>
      <StrictMode>
        <App router={<StaticRouterProvider router={router} context={context} hydrate={false} />} />
      </StrictMode>
    </StyleProvider>,
  );
  let markup = '';
  for await (const chunk of prelude) markup += String(chunk);
  return { markup, styles: extractStyle(cache) };
}
