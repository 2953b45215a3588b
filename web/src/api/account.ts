import { useQuery } from '@tanstack/react-query';
import type { Page } from './bpm';
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

/** One sign-in of the caller (their own history). */
export interface LoginLog {
  id: number;
  login_type: string;
  success: boolean;
  reason: string | null;
  ip: string;
  location: string | null;
  device: string | null;
  os: string | null;
  browser: string | null;
  new_device: boolean;
  created_at: string;
}

/** The caller's sign-in history, a page at a time. */
export function useMyLoginLogs(page: { page: number; page_size: number }) {
  return useQuery({
    queryKey: ['login-logs', 'my', page],
    queryFn: () =>
      data(api.GET('/api/v1/login-logs/my', { params: { query: page } })) as Promise<
        Page<LoginLog>
      >,
  });
}

/** One signed-in session of the caller. */
export interface Session {
  id: number;
  current: boolean;
  ip: string;
  location: string | null;
  device: string | null;
  os: string | null;
  browser: string | null;
  created_at: string;
  last_used_at: string;
}

export const sessionsKey = ['me', 'sessions'] as const;

/** The caller's sessions. */
export function useMySessions() {
  return useQuery({
    queryKey: sessionsKey,
    queryFn: () => data(api.GET('/api/v1/me/sessions')) as Promise<Session[]>,
  });
}

/** Ends another session of the caller (the current one ends by signing out). */
export async function endSession(id: number): Promise<void> {
  // A refusal throws (the client's middleware); the answer carries no data.
  await api.DELETE('/api/v1/me/sessions/{id}', { params: { path: { id } } });
}

/** Changes the caller's password. */
export async function changePassword(body: {
  old_password: string;
  new_password: string;
}): Promise<void> {
  await api.POST('/api/v1/me/password', { body });
}

/** The caller's second factor: whether it is on, and the steps that turn it on and off. */
export function useTotpStatus() {
  return useQuery({ queryKey: ['me', 'totp'], queryFn: () => data(api.GET('/api/v1/me/totp')) });
}

export function enrollTotp(password: string) {
  return data(api.POST('/api/v1/me/totp/enroll', { body: { password } }));
}

export function confirmTotp(body: { code: string; password: string }) {
  return data(api.POST('/api/v1/me/totp/confirm', { body }));
}

export async function disableTotp(body: { code: string; password: string }): Promise<void> {
  await api.POST('/api/v1/me/totp/disable', { body });
}
