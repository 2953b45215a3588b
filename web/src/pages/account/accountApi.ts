import { api, data } from '../../api/client';

/**
 * Calls to the external sign-in routes, which exist only while OAUTH_LOGIN_ENABLED is on and so
 * are not in the generated schema. They go through the same client (token, device id, refresh,
 * ApiError on failure).
 */
type LooseCall = (
  path: string,
  init?: { body?: unknown },
) => Promise<{ data?: { data: unknown } | undefined }>;
const loose = api as unknown as { GET: LooseCall; POST: LooseCall };

export interface StartAnswer {
  authorization_url: string;
  state: string;
}

export interface TokenAnswer {
  access_token: string;
  refresh_token: string;
}

export async function enabledProviders(): Promise<string[]> {
  const answer = await data(api.GET('/api/v1/login/oauth'));
  return answer.providers;
}

export function startLogin(provider: string): Promise<StartAnswer> {
  return data(
    loose.GET(`/api/v1/login/oauth/${encodeURIComponent(provider)}`),
  ) as Promise<StartAnswer>;
}

export function startLink(provider: string): Promise<StartAnswer> {
  return data(
    loose.POST(`/api/v1/me/oauth/${encodeURIComponent(provider)}/link`),
  ) as Promise<StartAnswer>;
}

export function finish(
  endpoint: string,
  body: { code: string; state: string; iss?: string },
): Promise<unknown> {
  return data(loose.POST(endpoint, { body }));
}

/** A provider's name as people know it (`oidc` is the organisation's own single sign-on). */
export function providerLabel(provider: string, sso: string): string {
  if (provider === 'github') return 'GitHub';
  if (provider === 'google') return 'Google';
  if (provider === 'oidc') return sso;
  return provider;
}
