import { sql } from 'kysely';
import { trustGatewayHeaders } from '../../platform/auth/guard.js';
import { registerReadiness } from '../../platform/http/health.js';
import { createHttpApp, type HttpApp } from '../../platform/http/server.js';
import type { Kernel } from '../../platform/kernel.js';
import { createMetrics } from '../../platform/metrics/metrics.js';
import { createIdentityDirectory } from '../identity/directory.js';
import type { IdentityTables } from '../identity/identity.tables.js';
import type { AuthTables } from './auth.tables.js';
import { registerAuthRoutes } from './auth.routes.js';
import { AuthService } from './auth.service.js';
import { createSessionRepo } from './session.repo.js';
import { AccessTokens } from './tokens.js';

/** The auth service's rules over the kernel's database, cache and stream. */
export function createAuthService(kernel: Kernel): AuthService {
  const { settings, logger, cache, stream } = kernel;
  const db = kernel.database.db.withTables<AuthTables & IdentityTables>();
  return new AuthService({
    sessions: createSessionRepo(db),
    directory: createIdentityDirectory(db, cache),
    cache,
    stream,
    tokens: new AccessTokens(settings.auth.jwtSecret, settings.auth.accessTokenTtlMs),
    logger: logger.child({ service: 'auth' }),
    refreshTtlMs: settings.auth.refreshTokenTtlMs,
    captchaMode: settings.auth.captcha,
  });
}

export async function buildAuthApp(kernel: Kernel): Promise<{ app: HttpApp; auth: AuthService }> {
  const { settings, logger, cache } = kernel;
  const db = kernel.database.db.withTables<AuthTables & IdentityTables>();
  const app = await createHttpApp({
    service: 'auth',
    logger,
    metrics: settings.metrics.enabled ? createMetrics('auth') : undefined,
    operationLog: kernel.operationLog,
    trustProxy: true,
  });
  trustGatewayHeaders(app, settings.gateway.signingSecret);
  const auth = createAuthService(kernel);
  registerReadiness(app, {
    database: () => sql`SELECT 1`.execute(db),
    cache: () => cache.ping(),
  });
  registerAuthRoutes(app, auth);
  return { app, auth };
}
