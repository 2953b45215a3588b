import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
// The signed-out pages' share of antd's precomputed styles (vite.antd-css.ts); the signed-in
// layout brings the rest. Themes still set their tokens as CSS variables.
import 'virtual:antd-signed-out.css';
import './i18n';
import { App } from './App';

// The first render as a transition: React renders it in slices and lets the browser handle
// input between them, instead of one long task while the console's components mount.
startTransition(() => {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});
