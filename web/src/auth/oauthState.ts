/**
 * What the console started an external sign-in attempt for, kept per `state` in this tab's
 * sessionStorage: the provider sends the browser back to one callback page for both signing in
 * and linking, and only the state tells them apart.
 */
export type Purpose = 'login' | 'link';

export interface Attempt {
  purpose: Purpose;
  /** Where to go once done: a console path. */
  back: string;
}

const PREFIX = 'approva.oauth.';

export function rememberAttempt(state: string, attempt: Attempt): void {
  sessionStorage.setItem(PREFIX + state, JSON.stringify(attempt));
}

/** The attempt a state was issued for, forgotten as it is read (a state works once). */
export function takeAttempt(state: string): Attempt | null {
  const raw = sessionStorage.getItem(PREFIX + state);
  sessionStorage.removeItem(PREFIX + state);
  if (!raw) return null;
  try {
    const value = JSON.parse(raw) as Partial<Attempt>;
    if (value.purpose !== 'login' && value.purpose !== 'link') return null;
    return { purpose: value.purpose, back: safePath(value.back ?? null, '/todo') };
  } catch {
    return null;
  }
}

/** Only a path inside the console: never an absolute URL another site could supply. */
export function safePath(value: string | null, fallback: string): string {
  return value && /^\/(?![/\\])/.test(value) ? value : fallback;
}
