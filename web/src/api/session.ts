/**
 * The signed-in session as the browser keeps it: tokens in localStorage (sent in the
 * Authorization header, never a cookie) and a device id that stays with this browser.
 */
const TOKENS_KEY = 'approva.tokens';
const DEVICE_KEY = 'approva.device_id';

export interface Tokens {
  access_token: string;
  refresh_token: string;
}

export function readTokens(): Tokens | null {
  try {
    const raw = localStorage.getItem(TOKENS_KEY);
    return raw ? (JSON.parse(raw) as Tokens) : null;
  } catch {
    return null;
  }
}

export function saveTokens(tokens: Tokens | null): void {
  if (tokens) localStorage.setItem(TOKENS_KEY, JSON.stringify(tokens));
  else localStorage.removeItem(TOKENS_KEY);
}

/** One id per browser, so the server can flag a sign-in from a new device. */
export function deviceId(): string {
  let id = localStorage.getItem(DEVICE_KEY);
  if (!id) {
    id = crypto.randomUUID();
    localStorage.setItem(DEVICE_KEY, id);
  }
  return id;
}
