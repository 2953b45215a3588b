import type { CoreEnv } from './core-env.js';
import type { CoreSettings } from './settings.js';
import { isPlaceholderSecret, isWeakSecret } from './secrets.js';

/**
 * The spec's production start-up checks of the core's variables (each service's slice checks its
 * own); features that are off are not checked.
 */
export function productionProblems(env: CoreEnv, settings: CoreSettings): string[] {
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
  if (env.MAIL_ENABLED && env.SMTP_HOST && env.SMTP_USER) {
    if (!env.SMTP_PASSWORD || isWeakSecret(env.SMTP_PASSWORD)) {
      problems.push('SMTP_PASSWORD must be set and not a weak value when mail uses authentication');
    }
  }
  if (env.ADMIN_INITIAL_PASSWORD !== undefined && isWeakSecret(env.ADMIN_INITIAL_PASSWORD)) {
    problems.push('ADMIN_INITIAL_PASSWORD must not be a weak value');
  }
  return problems;
}
