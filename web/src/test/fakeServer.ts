/**
 * The server as the browser sees it, for component tests: `fetch` answers what each test's
 * `answer` returns (404 in the envelope otherwise) and records every call. Importing this module
 * installs it: import it first, before the modules that create the API client (which keeps the
 * `fetch` it finds).
 */
export interface FakeServer {
  calls: Array<{
    method: string;
    path: string;
    query: URLSearchParams;
    body: unknown;
    headers: Headers;
  }>;
  /** May answer later (a promise): a test can hold one answer back while others arrive. */
  answer: (
    method: string,
    path: string,
    query: URLSearchParams,
    body: unknown,
  ) => Answer | undefined | Promise<Answer | undefined>;
}

type Answer = { status: number; body: unknown };

export const ok = (data: unknown) => ({
  status: 200,
  body: { code: 0, message: 'success', data },
});

export function installFakeServer(): FakeServer {
  const state: FakeServer = { calls: [], answer: () => undefined };
  globalThis.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input instanceof Request ? input : String(input), init);
    const url = new URL(request.url, 'http://console.test');
    const text = await request.text();
    const body: unknown = text ? JSON.parse(text) : null;
    state.calls.push({
      method: request.method,
      path: url.pathname,
      query: url.searchParams,
      body,
      headers: request.headers,
    });
    const given = state.answer(request.method, url.pathname, url.searchParams, body);
    // A held answer is awaited; any other is used in the same tick, as before holding existed.
    const found = (given instanceof Promise ? await given : given) ?? {
      status: 404,
      body: { code: 40400, message: `no answer for ${request.method} ${url.pathname}`, data: null },
    };
    return new Response(JSON.stringify(found.body), {
      status: found.status,
      headers: { 'content-type': 'application/json' },
    });
  };
  return state;
}

export const server = installFakeServer();
