import createClient, { type Middleware } from 'openapi-fetch';
import type { paths } from './schema';
import { ApiError, isCustomText } from './errors';
import { deviceId, readTokens, saveTokens, type Tokens } from './session';

export const REFRESH_TIMEOUT_MS = 15_000;

/** Called when the session cannot be renewed: the app goes back to sign-in. */
let onSignedOut: () => void = () => {};
export function setSignedOutHandler(handler: () => void): void {
  onSignedOut = handler;
}

/** The session is over (no token could be renewed): forget the tokens and go to sign-in. */
export function signedOut(): void {
  saveTokens(null);
  onSignedOut();
}

let refreshing: Promise<Tokens | null> | null = null;

/**
 * One refresh in flight at a time: every request that meets an expired token waits for the same
 * one (a second refresh with the same token would be refused as a reuse). Gives up after 15 s.
 */
export function refreshOnce(fetchImpl: typeof fetch = fetch): Promise<Tokens | null> {
  if (refreshing) return refreshing;
  const tokens = readTokens();
  if (!tokens) return Promise.resolve(null);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), REFRESH_TIMEOUT_MS);
  refreshing = fetchImpl('/api/v1/refresh', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-device-id': deviceId() },
    body: JSON.stringify({ refresh_token: tokens.refresh_token }),
    signal: controller.signal,
  })
    .then(async (res) => {
      if (!res.ok) return null;
      const body = (await res.json()) as { data: Tokens };
      const next = { access_token: body.data.access_token, refresh_token: body.data.refresh_token };
      saveTokens(next);
      return next;
    })
    .catch(() => null)
    .finally(() => {
      clearTimeout(timer);
      refreshing = null;
    });
  return refreshing;
}

/** The codes of an access token that a refresh may renew. */
export const EXPIRED = new Set([40100, 40101]);

/** A copy of each request in flight, so one that met an expired token can be sent again. */
const copies = new Map<string, Request>();

const auth: Middleware = {
  onRequest({ request, id }) {
    const tokens = readTokens();
    if (tokens) request.headers.set('authorization', `Bearer ${tokens.access_token}`);
    request.headers.set('x-device-id', deviceId());
    copies.set(id, request.clone());
    return request;
  },
  async onResponse({ request, response, id }) {
    const copy = copies.get(id);
    copies.delete(id);
    if (response.ok) return response;
    const body = (await response
      .clone()
      .json()
      .catch(() => null)) as { code?: number; message?: string; data?: unknown } | null;
    const code = body?.code ?? response.status * 100;
    const path = new URL(request.url, location.origin).pathname;
    const isSessionCall = path === '/api/v1/login' || path === '/api/v1/refresh';
    if (response.status === 401 && EXPIRED.has(code) && !isSessionCall && readTokens()) {
      const renewed = await refreshOnce();
      if (renewed) {
        // The retried request's answer is handled by the caller as if it were the first.
        const retry = copy ?? request;
        retry.headers.set('authorization', `Bearer ${renewed.access_token}`);
        const again = await fetch(retry);
        if (again.ok) return again;
        return toError(again);
      }
      signedOut();
    }
    throw new ApiError(
      response.status,
      code,
      body?.message ?? response.statusText,
      body?.data ?? null,
      isCustomText((name) => response.headers.get(name)),
    );
  },
};

async function toError(response: Response): Promise<never> {
  const body = (await response.json().catch(() => null)) as {
    code?: number;
    message?: string;
    data?: unknown;
  } | null;
  throw new ApiError(
    response.status,
    body?.code ?? response.status * 100,
    body?.message ?? response.statusText,
    body?.data ?? null,
    isCustomText((name) => response.headers.get(name)),
  );
}

export const api = createClient<paths>({ baseUrl: '/' });
api.use(auth);

/** The envelope's `data` of a successful call. */
export async function data<T>(call: Promise<{ data?: { data: T } | undefined }>): Promise<T> {
  const result = await call;
  return (result.data as { data: T }).data;
}
