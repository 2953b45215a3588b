import * as oidc from 'openid-client';

/** GitHub (or GitHub Enterprise) as a plain OAuth2 authorization server: no discovery. */
export interface GithubProviderConfig {
  name: 'github';
  clientId: string;
  clientSecret: string;
  /** `https://github.com`, or the Enterprise host: the authorize and token endpoints' base. */
  baseUrl: string;
  /** `https://api.github.com`, or `https://<host>/api/v3` for Enterprise. */
  apiUrl: string;
}

/** The account a GitHub sign-in is: its numeric id, and its primary e-mail if it has one. */
export interface ExternalClaims {
  sub: string;
  email?: string | undefined;
  email_verified?: boolean | undefined;
}

/**
 * openid-client's configuration from hand-written server metadata: GitHub publishes no
 * discovery document. `insecure` allows plain http (a local stand-in, never in production).
 */
export function githubConfiguration(p: GithubProviderConfig, insecure: boolean) {
  const config = new oidc.Configuration(
    {
      issuer: p.baseUrl,
      authorization_endpoint: `${p.baseUrl}/login/oauth/authorize`,
      token_endpoint: `${p.baseUrl}/login/oauth/access_token`,
    },
    p.clientId,
    undefined,
    oidc.ClientSecretPost(p.clientSecret),
  );
  if (insecure) oidc.allowInsecureRequests(config);
  return config;
}

export const GITHUB_SCOPE = 'read:user user:email';

async function getJson(config: oidc.Configuration, token: string, url: string) {
  const headers = new Headers({
    accept: 'application/vnd.github+json',
    'x-github-api-version': '2022-11-28',
  });
  const response = await oidc.fetchProtectedResource(
    config,
    token,
    new URL(url),
    'GET',
    undefined,
    headers,
  );
  if (!response.ok) throw new Error(`GitHub API ${new URL(url).pathname}: HTTP ${response.status}`);
  return (await response.json()) as unknown;
}

/**
 * Who the access token belongs to: `GET /user` (the stable numeric id is the subject, never
 * the renamable login) and `GET /user/emails`. Only the *primary* address counts, verified or
 * not as GitHub says: a secondary address is anyone's to add.
 */
export async function githubClaims(
  config: oidc.Configuration,
  p: GithubProviderConfig,
  accessToken: string,
): Promise<ExternalClaims> {
  const user = (await getJson(config, accessToken, `${p.apiUrl}/user`)) as { id?: unknown };
  if (typeof user.id !== 'number' && typeof user.id !== 'string') {
    throw new Error('GitHub /user answered without an id');
  }
  const emails = await getJson(config, accessToken, `${p.apiUrl}/user/emails`);
  const primary = Array.isArray(emails)
    ? (emails as Array<{ email?: unknown; primary?: unknown; verified?: unknown }>).find(
        (e) => e.primary === true && typeof e.email === 'string',
      )
    : undefined;
  return {
    sub: String(user.id),
    email: primary ? (primary.email as string) : undefined,
    email_verified: primary?.verified === true,
  };
}
