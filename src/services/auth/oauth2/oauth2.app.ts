import middie from '@fastify/middie';
import type { Logger } from 'pino';
import type { Settings } from '../../../config/settings.js';
import type { CaptchaMode } from '../captcha.js';
import type { Cache } from '../../../platform/cache/cache.js';
import type { HttpApp } from '../../../platform/http/server.js';
import { createClientStore } from './clients.repo.js';
import { registerClientRoutes } from './clients.routes.js';
import { OAuthClientsService } from './clients.service.js';
import type { BusinessAuditWriter } from '../../../platform/audit/business-audit.js';
import { registerInteractionRoutes } from './interaction.routes.js';
import { OAuthServer } from './oauth2.server.js';
import type { OAuthDb } from './oauth2.tables.js';
import { OAUTH_PREFIX, type OAuthAccounts } from './provider.js';
import type { SignInCore } from './sign-in.js';
import { KeyCipher } from './signing-keys.js';

export interface OAuth2Deps {
  db: OAuthDb;
  cache: Cache;
  logger: Logger;
  settings: Settings;
  /** The platform's users (the identity directory). */
  directory: OAuthAccounts;
  /** The sign-in core of `POST /api/v1/login` (the auth service), for the sign-in page. */
  auth: SignInCore;
  /** LOGIN_CAPTCHA, as `/login` applies it. */
  captchaMode: CaptchaMode;
  /** Client changes are recorded here (the kernel's business-audit writer). */
  audit: BusinessAuditWriter;
}

/**
 * Mounts the OAuth2/OIDC server under OAUTH_PREFIX: oidc-provider as middleware for the protocol
 * paths, the platform's routes for client management and the sign-in pages. The server answers
 * 503 until `start(issuerBase)` (the public URL is known only once the gateway listens).
 */
export async function registerOAuth2(app: HttpApp, deps: OAuth2Deps): Promise<OAuthServer> {
  const clients = createClientStore(deps.db);
  const server = new OAuthServer({
    db: deps.db,
    clients,
    accounts: deps.directory,
    cache: deps.cache,
    logger: deps.logger.child({ service: 'auth', component: 'oauth2' }),
    cipher: new KeyCipher(deps.settings.auth.oidc.keyEncryptionKey),
    cookieSecret: deps.settings.auth.oidc.cookieSecret,
    keyCheckIntervalMs: deps.settings.auth.oidc.keyCheckIntervalMs,
  });
  await app.register(middie);
  app.use(OAUTH_PREFIX, server.handle);
  app.addHook('onClose', async () => server.stop());
  registerClientRoutes(app, new OAuthClientsService({ db: deps.db, audit: deps.audit }));
  registerInteractionRoutes(app, {
    server,
    auth: deps.auth,
    cache: deps.cache,
    captchaMode: deps.captchaMode,
  });
  return server;
}
