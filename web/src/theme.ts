import { useSyncExternalStore } from 'react';

export type ThemeMode = 'light' | 'dark';
const THEME_KEY = 'approva.theme';
const listeners = new Set<() => void>();
const DARK_QUERY = '(prefers-color-scheme: dark)';
/** The theme the sign-in page is built in ahead (src/prerender.tsx), where no browser is. */
let prerendering: ThemeMode = 'light';

/**
 * The theme chosen before, else the system's. login.html's script (scripts/prerender.mjs) picks
 * the prebuilt sign-in page's theme by the same rule.
 */
function current(): ThemeMode {
  if (typeof window === 'undefined') return prerendering;
  const saved = localStorage.getItem(THEME_KEY);
  if (saved === 'light' || saved === 'dark') return saved;
  return window.matchMedia?.(DARK_QUERY).matches ? 'dark' : 'light';
}

export function setThemeMode(mode: ThemeMode): void {
  localStorage.setItem(THEME_KEY, mode);
  listeners.forEach((l) => l());
}

/** For the build of the sign-in page ahead: the theme it renders in. */
export function setPrerenderThemeMode(mode: ThemeMode): void {
  prerendering = mode;
}

/** Without a saved choice the console follows the system's theme, also when it changes. */
function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  const system = typeof window === 'undefined' ? undefined : window.matchMedia?.(DARK_QUERY);
  system?.addEventListener('change', listener);
  return () => {
    listeners.delete(listener);
    system?.removeEventListener('change', listener);
  };
}

export function useThemeMode(): ThemeMode {
  return useSyncExternalStore(
    subscribe,
    current,
    // Hydrating the prebuilt sign-in page: built in the theme `current` answers (see above).
    current,
  );
}
