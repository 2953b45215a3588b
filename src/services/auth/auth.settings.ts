import { createHmac } from 'node:crypto';
import { z } from 'zod';
import { bool, duration, int, optionalText, url } from '../../config/env-fields.js';
import { isPlaceholderSecret } from '../../config/secrets.js';
import { defineSettings, type SliceEnv } from '../../config/slice.js';

const env = {
  ACCESS_TOKEN_TTL: duration('15m'),
  REFRESH_TOKEN_TTL: duration('7d'),
  SESSION_MAX_AGE: duration('30d'),
  LOGIN_BACKOFF_AFTER: int(5, 1, 1000),
  LOGIN_BACKOFF_BASE: duration('1s'),
  LOGIN_BACKOFF_MAX: duration('15m'),
  LOGIN_IP_MAX_FAILURES: int(100, 1),
  LOGIN_CAPTCHA: z.enum(['always', 'after_failures', 'off']).default('after_failures'),
  OIDC_ISSUER_URL: url,
  OIDC_KEY_ENCRYPTION_KEY: optionalText,
  OIDC_KEY_CHECK_INTERVAL: duration('60s'),
  OAUTH_LOGIN_ENABLED: bool(false),
  OAUTH_GITHUB_CLIENT_ID: optionalText,
  OAUTH_GITHUB_CLIENT_SECRET: optionalText,
  OAUTH_GITHUB_BASE_URL: url.transform((v) => v ?? 'https://github.com'),
  OAUTH_GITHUB_API_URL: url.transform((v) => v ?? 'https://api.github.com'),
  OAUTH_GOOGLE_CLIENT_ID: optionalText,
  OAUTH_GOOGLE_CLIENT_SECRET: optionalText,
  OAUTH_OIDC_ISSUER: url,
  OAUTH_OIDC_CLIENT_ID: optionalText,
  OAUTH_OIDC_CLIENT_SECRET: optionalText,
  OAUTH_REDIRECT_URL: url,
  PASSWORD_RESET_URL: url,
  PASSWORD_FORGOT_PER_IP: int(5, 1, 100_000),
  PASSWORD_RESET_PER_IP: int(10, 1, 100_000),
};
type AuthEnv = SliceEnv<typeof env>;

/** Sign-in through external providers, from the `OAUTH_*` settings. */
function externalLogin(env: AuthEnv) {
  return {
    enabled: env.OAUTH_LOGIN_ENABLED,
    /** The console page providers send the browser back to; `/<provider>` is appended. */
    redirectUrl: env.OAUTH_REDIRECT_URL,
    /** GitHub (plain OAuth2); the URLs are settings so GitHub Enterprise works. */
    github:
      env.OAUTH_GITHUB_CLIENT_ID && env.OAUTH_GITHUB_CLIENT_SECRET
        ? {
            clientId: env.OAUTH_GITHUB_CLIENT_ID,
            clientSecret: env.OAUTH_GITHUB_CLIENT_SECRET,
            baseUrl: env.OAUTH_GITHUB_BASE_URL.replace(/\/+$/, ''),
            apiUrl: env.OAUTH_GITHUB_API_URL.replace(/\/+$/, ''),
          }
        : undefined,
    google:
      env.OAUTH_GOOGLE_CLIENT_ID && env.OAUTH_GOOGLE_CLIENT_SECRET
        ? { clientId: env.OAUTH_GOOGLE_CLIENT_ID, clientSecret: env.OAUTH_GOOGLE_CLIENT_SECRET }
        : undefined,
    oidc:
      env.OAUTH_OIDC_ISSUER && env.OAUTH_OIDC_CLIENT_ID && env.OAUTH_OIDC_CLIENT_SECRET
        ? {
            issuer: env.OAUTH_OIDC_ISSUER,
            clientId: env.OAUTH_OIDC_CLIENT_ID,
            clientSecret: env.OAUTH_OIDC_CLIENT_SECRET,
          }
        : undefined,
  };
}

/** The production checks of external sign-in and the OAuth2 server's key encryption. */
function productionProblems(env: AuthEnv): string[] {
  const problems: string[] = [];
  if (env.OAUTH_LOGIN_ENABLED) {
    for (const provider of ['GITHUB', 'GOOGLE', 'OIDC'] as const) {
      const id = env[`OAUTH_${provider}_CLIENT_ID`];
      const secret = env[`OAUTH_${provider}_CLIENT_SECRET`];
      if (id && secret !== undefined && isPlaceholderSecret(secret)) {
        problems.push(`OAUTH_${provider}_CLIENT_SECRET must not be a placeholder`);
      }
    }
  }
  const keyKey = env.OIDC_KEY_ENCRYPTION_KEY;
  if (keyKey !== undefined && (keyKey.length < 32 || isPlaceholderSecret(keyKey))) {
    problems.push('OIDC_KEY_ENCRYPTION_KEY must be at least 32 characters and not a placeholder');
  }
  return problems;
}

/** The auth service's settings: tokens, sign-in throttling, the OAuth2 server, external sign-in, password reset. */
export const authSettings = defineSettings({
  env,
  shape: (env) => ({
    jwtSecret: env.JWT_SECRET,
    accessTokenTtlMs: env.ACCESS_TOKEN_TTL,
    refreshTokenTtlMs: env.REFRESH_TOKEN_TTL,
    /** Absolute lifetime of a sign-in session; refresh never extends it. */
    sessionMaxAgeMs: env.SESSION_MAX_AGE,
    throttle: {
      /** Failures of one account (24 h, until a success) before each attempt waits. */
      backoffAfter: env.LOGIN_BACKOFF_AFTER,
      backoffBaseMs: env.LOGIN_BACKOFF_BASE,
      backoffMaxMs: env.LOGIN_BACKOFF_MAX,
      /** Failures from one IP within 15 minutes before its attempts are refused. */
      ipMaxFailures: env.LOGIN_IP_MAX_FAILURES,
    },
    captcha: env.LOGIN_CAPTCHA,
    oidc: {
      /** The public base URL; the issuer is `${issuerBase}/api/v1/oauth2`. Unset: the gateway's own URL. */
      issuerBase: env.OIDC_ISSUER_URL?.replace(/\/+$/, ''),
      // Encrypts the stored signing keys: its own setting, else derived from JWT_SECRET.
      keyEncryptionKey:
        env.OIDC_KEY_ENCRYPTION_KEY ??
        createHmac('sha256', env.JWT_SECRET).update('approva/oidc-key-encryption').digest('hex'),
      /** How often a running server looks for keys rotated by `keys rotate`. */
      keyCheckIntervalMs: env.OIDC_KEY_CHECK_INTERVAL,
      cookieSecret: createHmac('sha256', env.JWT_SECRET)
        .update('approva/oidc-cookies')
        .digest('hex'),
    },
    externalLogin: externalLogin(env),
    passwordReset: {
      /** Where the reset link points (`?token=` is appended); unset: the console's page. */
      url: env.PASSWORD_RESET_URL,
      /** `/password/forgot` requests per client IP in 15 minutes. */
      forgotPerIp: env.PASSWORD_FORGOT_PER_IP,
      /** `/password/reset` requests per client IP in 15 minutes. */
      resetPerIp: env.PASSWORD_RESET_PER_IP,
    },
  }),
  productionProblems,
});

declare module '../../config/settings.js' {
  interface ModuleSettings {
    auth: ReturnType<typeof authSettings.shape>;
  }
}
