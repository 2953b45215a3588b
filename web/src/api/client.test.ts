import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { REFRESH_TIMEOUT_MS, refreshOnce } from './client';
import { readTokens, saveTokens } from './session';

const renewed = { access_token: 'a2', refresh_token: 'r2' };

beforeEach(() => saveTokens({ access_token: 'a1', refresh_token: 'r1' }));
afterEach(() => {
  vi.useRealTimers();
  localStorage.clear();
});

describe('refreshOnce', () => {
  it('sends one refresh for any number of callers and stores the new tokens', async () => {
    const fetchImpl = vi.fn(
      async () => new Response(JSON.stringify({ code: 200, message: 'success', data: renewed })),
    );
    const results = await Promise.all([1, 2, 3].map(() => refreshOnce(fetchImpl)));
    expect(fetchImpl).toHaveBeenCalledTimes(1);
    expect(results).toEqual([renewed, renewed, renewed]);
    expect(readTokens()).toEqual(renewed);
    const [url, init] = fetchImpl.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/v1/refresh');
    expect(JSON.parse(init.body as string)).toEqual({ refresh_token: 'r1' });
    expect((init.headers as Record<string, string>)['x-device-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers null when the server refuses the refresh token', async () => {
    const fetchImpl = vi.fn(
      async () =>
        new Response(JSON.stringify({ code: 40102, message: 'revoked', data: null }), {
          status: 401,
        }),
    );
    expect(await refreshOnce(fetchImpl)).toBeNull();
  });

  it('gives up after 15 seconds without an answer', async () => {
    vi.useFakeTimers();
    const fetchImpl = vi.fn(
      (_url: string, init: RequestInit) =>
        new Promise<Response>((_resolve, reject) => {
          init.signal?.addEventListener('abort', () => reject(new Error('aborted')));
        }),
    );
    const pending = refreshOnce(fetchImpl as unknown as typeof fetch);
    await vi.advanceTimersByTimeAsync(REFRESH_TIMEOUT_MS - 1);
    expect(fetchImpl).toHaveBeenCalledTimes(1);
    let settled = false;
    void pending.then(() => (settled = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await pending).toBeNull();
    expect(REFRESH_TIMEOUT_MS).toBe(15_000);
  });
});
