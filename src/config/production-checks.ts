import type { Env, Settings } from './settings.js';
import { isPlaceholderSecret, isWeakSecret } from './secrets.js';
import { systemProductionProblems } from './system-settings.js';

/** The spec's production start-up checks; features that are off are not checked. */
export function productionProblems(env: Env, settings: Settings): string[] {
  const problems: string[] = [];
  if (settings.failpoint) problems.push('FAILPOINT must not be set in production (fault tests)');
  if (env.JWT_SECRET.length < 32 || isPlaceholderSecret(env.JWT_SECRET)) {
    problems.push('JWT_SECRET must be at least 32 characters and not a placeholder');
  }
  if (
    !env.AUDIT_CHAIN_SECRET ||
    env.AUDIT_CHAIN_SECRET.length < 32 ||
    isPlaceholderSecret(env.AUDIT_CHAIN_SECRET)
  ) {
    problems.push('AUDIT_CHAIN_SECRET must be set, at least 32 characters and not a placeholder');
  }
  if (env.GATEWAY_SIGNING_SECRET !== undefined && isPlaceholderSecret(env.GATEWAY_SIGNING_SECRET)) {
    problems.push('GATEWAY_SIGNING_SECRET must not be a placeholder');
  }
  if (!env.DATABASE_URL) {
    problems.push(
      'DATABASE_URL is required in production (the embedded database is for development)',
    );
  } else if (!settings.database.password || isWeakSecret(settings.database.password)) {
    problems.push('DB_PASSWORD (or the DATABASE_URL password) must be set and not a weak value');
  }
  if (env.REDIS_URL) {
    const redisPassword = env.REDIS_PASSWORD ?? decodeURIComponent(new URL(env.REDIS_URL).password);
    if (redisPassword && isWeakSecret(redisPassword)) {
      problems.push('REDIS_PASSWORD must not be a weak value');
    }
  }
  if (env.UPLOAD_STORAGE_TYPE !== 'local') {
    // UPLOAD_S3_* wins; the older S3_* names are its fallback (the message names the old one).
    for (const name of ['S3_ACCESS_KEY', 'S3_SECRET_KEY'] as const) {
      const value = env[`UPLOAD_${name}`] ?? env[name];
      if (!value || isPlaceholderSecret(value)) {
        problems.push(
          `${name} must be set and not a placeholder when UPLOAD_STORAGE_TYPE is ${env.UPLOAD_STORAGE_TYPE}`,
        );
      }
    }
  }
  if (env.MAIL_ENABLED && env.SMTP_HOST && env.SMTP_USER) {
    if (!env.SMTP_PASSWORD || isWeakSecret(env.SMTP_PASSWORD)) {
      problems.push('SMTP_PASSWORD must be set and not a weak value when mail uses authentication');
    }
  }
  if (env.OAUTH_LOGIN_ENABLED) {
    for (const provider of ['GITHUB', 'GOOGLE', 'OIDC'] as const) {
      const id = env[`OAUTH_${provider}_CLIENT_ID`];
      const secret = env[`OAUTH_${provider}_CLIENT_SECRET`];
      if (id && secret !== undefined && isPlaceholderSecret(secret)) {
        problems.push(`OAUTH_${provider}_CLIENT_SECRET must not be a placeholder`);
      }
    }
  }
  if (
    env.OIDC_KEY_ENCRYPTION_KEY !== undefined &&
    (env.OIDC_KEY_ENCRYPTION_KEY.length < 32 || isPlaceholderSecret(env.OIDC_KEY_ENCRYPTION_KEY))
  ) {
    problems.push('OIDC_KEY_ENCRYPTION_KEY must be at least 32 characters and not a placeholder');
  }
  if (env.ADMIN_INITIAL_PASSWORD !== undefined && isWeakSecret(env.ADMIN_INITIAL_PASSWORD)) {
    problems.push('ADMIN_INITIAL_PASSWORD must not be a weak value');
  }
  problems.push(...systemProductionProblems(env));
  return problems;
}
