import { sql } from 'kysely';
import { trustGatewayHeaders } from '../../platform/auth/guard.js';
import { GeoLocator } from '../../platform/geo/geo-locator.js';
import { registerReadiness } from '../../platform/http/health.js';
import type { HttpApp } from '../../platform/http/server.js';
import { createServiceApp } from '../../platform/http/service-app.js';
import type { Kernel } from '../../platform/kernel.js';
import type { AuthPorts } from './auth.ports.js';
import type { AuthTables } from './auth.tables.js';
import { registerAuthRoutes } from './auth.routes.js';
import { AuthService } from './auth.service.js';
import { LoginThrottle } from './login-throttle.js';
import { createSessionRepo } from './session.repo.js';
import { insertLoginEvent, LoginEventRelay } from './login-outbox.js';
import { AUTH_JOBS, authJobs } from './auth.jobs.js';
import type { JobSpec } from '../../platform/jobs/catalogue.js';
import { AccessTokens } from './tokens.js';
import { registerOAuth2 } from './oauth2/oauth2.app.js';
import type { OAuthServer } from './oauth2/oauth2.server.js';
import type { OAuthTables } from './oauth2/oauth2.tables.js';
import type { ExternalTables } from './external/external.repo.js';
import {
  registerExternalLoginRoutes,
  registerProviderListRoute,
} from './external/external.routes.js';
import { ExternalLoginService } from './external/external.service.js';
import { KeyCipher } from './oauth2/signing-keys.js';
import { registerSessionRoutes } from './sessions/sessions.routes.js';
import { SessionsService } from './sessions/sessions.service.js';
import { registerTotpRoutes } from './totp/totp.routes.js';
import { TotpService } from './totp/totp.service.js';
import type { TotpTables } from './totp/totp.tables.js';
import { openMailer } from '../../platform/notify/mailer.js';
import { registerPasswordResetRoutes } from './password-reset/password-reset.routes.js';
import { PasswordResetService } from './password-reset/password-reset.service.js';
import type { PasswordResetTables } from './password-reset/password-reset.tables.js';

/** The auth service's rules over the kernel's database, cache and stream. */
export function createAuthService(kernel: Kernel, ports: AuthPorts): AuthService {
  return createAuthWithTotp(kernel, ports).auth;
}

/**
 * The auth rules and the TOTP second factor (issue 11), which check each other: sign-in asks
 * TOTP for the code; a TOTP change asks auth to check the password (counted like a failed
 * sign-in) and to sign the other sessions out. Secrets are encrypted with a key derived from
 * the key-encryption setting.
 */
function createAuthWithTotp(kernel: Kernel, ports: AuthPorts) {
  const { settings, logger, cache } = kernel;
  const db = kernel.database.db.withTables<AuthTables>();
  const totp = new TotpService({
    db: kernel.database.db.withTables<TotpTables>(),
    cipher: new KeyCipher(`${settings.auth.oidc.keyEncryptionKey}/totp`),
    cache,
    confirmPassword: (principal, password, ctx) =>
      auth.confirmPassword(principal, password, ctx, {
        field: 'password',
        reason: 'wrong_password_totp',
      }),
    signOutOthers: (principal) =>
      auth.revokeUserSessions(principal.userId, 'second_factor_changed', principal.sessionId),
  });
  const auth: AuthService = new AuthService({
    secondFactor: totp.verifyLogin,
    sessions: createSessionRepo(db),
    directory: ports.users,
    cache,
    loginEvents: (row) => insertLoginEvent(db, row),
    tokens: new AccessTokens(settings.auth.jwtSecret, settings.auth.accessTokenTtlMs),
    passwords: kernel.passwords,
    throttle: new LoginThrottle({ cache, ...settings.auth.throttle }),
    logger: logger.child({ service: 'auth' }),
    refreshTtlMs: settings.auth.refreshTokenTtlMs,
    sessionMaxAgeMs: settings.auth.sessionMaxAgeMs,
    captchaMode: settings.auth.captcha,
  });
  return { auth, totp };
}

export async function buildAuthApp(
  kernel: Kernel,
  ports: AuthPorts,
): Promise<{ app: HttpApp; auth: AuthService; oauth: OAuthServer; jobs: JobSpec[] }> {
  const { settings, logger, cache } = kernel;
  const db = kernel.database.db.withTables<AuthTables>();
  const { app } = await createServiceApp(kernel, 'auth');
  trustGatewayHeaders(app, { signingSecret: settings.gateway.signingSecret, nonces: cache });
  const { auth, totp } = createAuthWithTotp(kernel, ports);
  const relay = new LoginEventRelay({
    db,
    stream: kernel.stream,
    logger: logger.child({ job: AUTH_JOBS.loginRelay.name }),
  });
  registerReadiness(
    app,
    { database: () => sql`SELECT 1`.execute(db), cache: () => cache.ping() },
    undefined,
    // Login events waiting for the stream: still ready (sign-in works), but visible.
    async () => ({ login_relay: await relay.backlog() }),
  );
  registerAuthRoutes(app, auth);
  registerTotpRoutes(app, totp);
  // The same lookup as the login log's (AUDIT_GEO_ONLINE_URL when set, else offline).
  const geo = new GeoLocator({ cache, onlineUrl: settings.geoOnlineUrl });
  const sessionRepo = createSessionRepo(db);
  registerSessionRoutes(
    app,
    new SessionsService({
      db,
      signOut: (id, reason) => auth.signOutSession(id, reason),
      findUser: (userId, options) => ports.users.findUser(userId, options),
      endOAuthGrants: (userId) => sessionRepo.endOAuthGrants(userId),
      locate: (ip) => geo.locate(ip),
    }),
  );
  // The OAuth2/OIDC server (issue 11): its own routes and tables under ./oauth2.
  const oauth = await registerOAuth2(app, {
    db: kernel.database.db.withTables<OAuthTables>(),
    cache,
    logger,
    settings,
    directory: ports.users,
    auth: auth.checks,
    captchaMode: settings.auth.captcha,
    audit: kernel.businessAudit,
  });
  // Platform mail: reset links, and notices of linked and unlinked external accounts.
  const mailer = openMailer(settings.mail, logger);
  app.addHook('onClose', async () => mailer?.close());
  // External sign-in: GitHub (OAuth2) and OpenID Connect providers (issue 11).
  let externalProviders: string[] = [];
  if (settings.auth.externalLogin.enabled) {
    const { github, google, oidc } = settings.auth.externalLogin;
    const providers = [
      ...(github ? [{ name: 'github' as const, ...github }] : []),
      ...(google
        ? [{ name: 'google' as const, issuer: 'https://accounts.google.com', ...google }]
        : []),
      ...(oidc ? [{ name: 'oidc' as const, ...oidc }] : []),
    ];
    const external = new ExternalLoginService({
      db: kernel.database.db.withTables<ExternalTables>(),
      accounts: ports.users,
      audit: kernel.businessAudit,
      mailer,
      cache,
      logger: logger.child({ service: 'auth' }),
      providers,
      production: settings.production,
      redirectUrl: () =>
        settings.auth.externalLogin.redirectUrl ??
        `${oauth.origin ?? `http://localhost:${settings.http.port}`}/oauth/callback`,
    });
    externalProviders = external.providerNames();
    registerExternalLoginRoutes(app, external, (userId, loginType, totpCode, ctx) =>
      auth.signInWithProvider(userId, loginType, totpCode, ctx),
    );
  }
  registerProviderListRoute(app, externalProviders);

  // Password reset by mail (issue 11).
  registerPasswordResetRoutes(
    app,
    new PasswordResetService({
      db: kernel.database.db.withTables<PasswordResetTables>(),
      passwords: kernel.passwords,
      accounts: ports.users,
      cache,
      logger: logger.child({ service: 'auth' }),
      mailer,
      production: settings.production,
      forgotPerIp: settings.auth.passwordReset.forgotPerIp,
      resetPerIp: settings.auth.passwordReset.resetPerIp,
      resetUrl: () =>
        settings.auth.passwordReset.url ??
        `${oauth.origin ?? `http://localhost:${settings.http.port}`}/reset-password`,
      setPassword: (userId, hash) => ports.users.setPassword(userId, hash),
      renderText: ports.renderText,
      revokeSessions: (userId) => auth.revokeUserSessions(userId, 'password_reset'),
    }),
  );
  return { app, auth, oauth, jobs: authJobs(kernel, relay) };
}
