import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router';
// The signed-out pages' share of antd's precomputed styles (vite.antd-css.ts); the signed-in
// layout brings the rest. Themes still set their tokens as CSS variables.
import 'virtual:antd-signed-out.css';
import './i18n';
import { App, routes } from './App';

const root = document.getElementById('root')!;
const app = (
  <StrictMode>
    <App router={<RouterProvider router={createBrowserRouter(routes)} />} />
  </StrictMode>
);

if (root.hasChildNodes()) {
  // The sign-in page built ahead (login.html, scripts/prerender.mjs), already on screen in the
  // visitor's language and theme: React takes it over instead of rendering it again.
  hydrateRoot(root, app);
} else {
  // The first render as a transition: React renders it in slices and lets the browser handle
  // input between them, instead of one long task while the console's components mount.
  startTransition(() => {
    createRoot(root).render(app);
  });
}
