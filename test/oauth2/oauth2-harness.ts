import * as oidc from 'openid-client';
import { uniq, type TestPlatform } from '../helpers/platform.js';

export interface RegisteredClient {
  client_id: string;
  client_secret: string | null;
  [key: string]: unknown;
}

export const REDIRECT_URI = 'https://app.example.test/callback';

export async function registerClient(
  platform: TestPlatform,
  body: Record<string, unknown>,
): Promise<RegisteredClient> {
  const res = await platform.call('POST', '/api/v1/oauth2/clients', {
    token: await platform.adminToken(),
    body: { name: uniq('client'), ...body },
  });
  if (res.status !== 200) throw new Error(`client registration failed: ${res.status} ${res.text}`);
  return res.body.data as RegisteredClient;
}

export const issuerOf = (platform: TestPlatform) => `${platform.url}/api/v1/oauth2`;

/** openid-client's configuration for a registered client (plain-http test issuer allowed). */
export async function clientConfig(platform: TestPlatform, client: RegisteredClient) {
  const auth = client.client_secret ? oidc.ClientSecretBasic(client.client_secret) : oidc.None();
  return oidc.discovery(new URL(issuerOf(platform)), client.client_id, undefined, auth, {
    execute: [oidc.allowInsecureRequests],
  });
}

/** A browser with a cookie jar that follows redirects by hand and fills in the HTML forms. */
export class Browser {
  private readonly cookies = new Map<string, string>();
  readonly visited: string[] = [];

  private remember(response: Response) {
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      const expired = attributes.some((a) => /expires=thu, 01 jan 1970/i.test(a.trim()));
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  async request(
    url: string,
    init: { method?: string; form?: Record<string, string>; origin?: string } = {},
  ) {
    const headers: Record<string, string> = {};
    if (this.cookies.size > 0) {
      headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    }
    if (init.origin) headers.origin = init.origin;
    let body: string | undefined;
    if (init.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(init.form).toString();
    }
    this.visited.push(url);
    const response = await fetch(url, {
      method: init.method ?? 'GET',
      headers,
      body,
      redirect: 'manual',
    });
    this.remember(response);
    return response;
  }
}

/** The first form of an HTML page: its action and its input names. */
export function formOf(html: string, baseUrl: string) {
  const action = /<form[^>]*action="([^"]*)"/.exec(html)?.[1];
  if (!action) throw new Error(`no form on the page: ${html.slice(0, 300)}`);
  const inputs = [...html.matchAll(/<input[^>]*name="([^"]+)"[^>]*>/g)].map((m) => m[1]!);
  return { action: new URL(action.replace(/&amp;/g, '&'), baseUrl).toString(), inputs };
}

/**
 * Drives the authorization endpoint like a person in a browser: follows redirects, signs in on
 * the sign-in page, approves on the consent page, until the browser is sent to `redirectUri`.
 * Returns that final URL (with `code` and `state`).
 */
export async function authorizeInBrowser(
  authorizationUrl: URL | string,
  redirectUri: string,
  credentials: { username: string; password: string; tenant_code?: string },
  browser = new Browser(),
): Promise<URL> {
  let url = authorizationUrl.toString();
  let method = 'GET';
  let form: Record<string, string> | undefined;
  for (let step = 0; step < 12; step++) {
    const response = await browser.request(url, { method, form });
    if (response.status >= 300 && response.status < 400) {
      const location = new URL(response.headers.get('location')!, url).toString();
      if (location.startsWith(redirectUri)) return new URL(location);
      url = location;
      method = 'GET';
      form = undefined;
      continue;
    }
    const html = await response.text();
    if (response.status !== 200)
      throw new Error(`step ${url} answered ${response.status}: ${html.slice(0, 300)}`);
    const page = formOf(html, url);
    form = page.inputs.includes('password')
      ? {
          username: credentials.username,
          password: credentials.password,
          tenant_code: credentials.tenant_code ?? '',
        }
      : {};
    url = page.action;
    method = 'POST';
  }
  throw new Error('the authorization flow did not reach the redirect URI');
}

/** Authorization code + PKCE through the real pages; returns openid-client's token response. */
export async function codeFlow(
  config: oidc.Configuration,
  options: {
    scope?: string;
    credentials?: { username: string; password: string; tenant_code?: string };
  } = {},
) {
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: REDIRECT_URI,
    scope: options.scope ?? 'openid profile',
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
  });
  const callback = await authorizeInBrowser(
    url,
    REDIRECT_URI,
    options.credentials ?? { username: 'admin', password: 'admin123' },
  );
  const tokens = await oidc.authorizationCodeGrant(config, callback, {
    pkceCodeVerifier: verifier,
    expectedState: state,
  });
  return { tokens, callback, verifier };
}
