import { api, data } from './client';
import type { Purpose } from '../auth/oauthState';

export interface StartAnswer {
  authorization_url: string;
  state: string;
}

export interface TokenAnswer {
  access_token: string;
  refresh_token: string;
}

export interface LinkedAccount {
  provider: string;
  email: string | null;
  created_at: string | null;
}

const providerPath = (provider: string) => ({ params: { path: { provider } } });

export async function enabledProviders(): Promise<string[]> {
  const answer = await data(api.GET('/api/v1/login/oauth'));
  return answer.providers;
}

export function startLogin(provider: string): Promise<StartAnswer> {
  return data(api.GET('/api/v1/login/oauth/{provider}', providerPath(provider)));
}

export function startLink(provider: string): Promise<StartAnswer> {
  return data(api.POST('/api/v1/me/oauth/{provider}/link', providerPath(provider)));
}

/** Hands what the provider returned to the sign-in or the link callback, by the attempt's purpose. */
export async function finish(
  provider: string,
  purpose: Purpose,
  body: { code: string; state: string; iss?: string; totp_code?: string },
): Promise<unknown> {
  if (purpose === 'login') {
    return data(
      api.POST('/api/v1/login/oauth/{provider}/callback', { ...providerPath(provider), body }),
    );
  }
  // A failure throws (the client's error middleware); a link answers null.
  await api.POST('/api/v1/me/oauth/{provider}/link/callback', { ...providerPath(provider), body });
  return null;
}

export async function linkedAccounts(): Promise<LinkedAccount[]> {
  return (await data(api.GET('/api/v1/me/oauth'))).links;
}

export async function unlink(provider: string): Promise<void> {
  await api.DELETE('/api/v1/me/oauth/{provider}', providerPath(provider));
}

/** A provider's name as people know it (`oidc` is the organisation's own single sign-on). */
export function providerLabel(provider: string, sso: string): string {
  if (provider === 'github') return 'GitHub';
  if (provider === 'google') return 'Google';
  if (provider === 'oidc') return sso;
  return provider;
}
