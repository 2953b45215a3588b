import type { Env } from './settings.js';

/** Sign-in through external providers (issue 11), from the `OAUTH_*` settings. */
export function externalLoginSettings(env: Env) {
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

/** The notification API; notices are skipped silently until both are set (the spec's rule). */
export function notifySettings(env: Env) {
  return {
    enabled: Boolean(env.NOTIFY_API_BASE && env.NOTIFY_API_TOKEN),
    base: env.NOTIFY_API_BASE,
    token: env.NOTIFY_API_TOKEN,
    /** The audit service's notice outbox is paced and retried as BPM's is (BPM_OUTBOX_*). */
    outbox: {
      pollIntervalMs: env.BPM_OUTBOX_POLL_INTERVAL,
      maxAttempts: env.BPM_OUTBOX_MAX_ATTEMPTS,
      backoffBaseMs: env.BPM_OUTBOX_BACKOFF_BASE,
      leaseMs: env.BPM_OUTBOX_LEASE,
      timeoutMs: env.BPM_OUTBOX_TIMEOUT,
      keepDeliveredMs: env.BPM_OUTBOX_KEEP_DELIVERED,
    },
  };
}
