import type { IncomingMessage, ServerResponse } from 'node:http';
import type Provider from 'oidc-provider';
import type { Logger } from 'pino';
import type { Cache } from '../../../platform/cache/cache.js';
import { BodyTooLarge, ClientRateLimit, readBody } from './client-rate-limit.js';
import { pruneExpiredArtifacts } from './artifacts.repo.js';
import type { ClientStore } from './clients.repo.js';
import type { OAuthDb } from './oauth2.tables.js';
import {
  createProvider,
  KEY_PUBLISH_WINDOW_MS,
  OAUTH_PREFIX,
  type OAuthAccounts,
} from './provider.js';
import {
  ensureSigningKey,
  loadSigningKeys,
  SigningKeyUnavailable,
  type KeyCipher,
} from './signing-keys.js';
import { listPublishedKeys } from './signing-keys.repo.js';

export interface OAuthServerOptions {
  db: OAuthDb;
  clients: ClientStore;
  accounts: OAuthAccounts;
  cache: Cache;
  logger: Logger;
  cipher: KeyCipher;
  /** Signs the provider's cookies. */
  cookieSecret: string;
  /** How often a changed key set (a `keys rotate` elsewhere) is picked up; default 60 s. */
  keyCheckIntervalMs?: number;
}

/** Paths under the mount that are the platform's own routes, not the provider's. */
const OWN_ROUTES = /^\/(clients|interaction)(\/|\?|$)/;
const LIMITED = /^\/(token|introspect)(\?|$)/;

type Next = (err?: unknown) => void;

function bare(
  res: ServerResponse,
  status: number,
  body: object,
  headers: Record<string, string> = {},
) {
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    ...headers,
  });
  res.end(JSON.stringify(body));
}

/**
 * The OAuth2/OIDC server: oidc-provider behind the platform's rate limit. It starts once the
 * issuer is known; until then, and whenever the signing keys cannot be read, it answers 503
 * and issues nothing (no fallback key is ever made up while stored keys exist).
 */
export class OAuthServer {
  private provider: Provider | undefined;
  private callback: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
  private kids = '';
  private issuer: string | undefined;
  private timer: NodeJS.Timeout | undefined;
  private pruner: NodeJS.Timeout | undefined;
  private readonly rateLimit: ClientRateLimit;

  constructor(private readonly o: OAuthServerOptions) {
    this.rateLimit = new ClientRateLimit(o);
  }

  /** The running provider (interaction pages need it), or undefined while unavailable. */
  get current(): Provider | undefined {
    return this.provider;
  }

  /** The issuer's origin: sign-in forms posted from any other origin are refused. */
  get origin(): string | undefined {
    return this.issuer && new URL(this.issuer).origin;
  }

  /** Starts with the public base URL (the gateway's); the issuer adds the mount path. */
  async start(issuerBase: string): Promise<void> {
    this.issuer = `${issuerBase.replace(/\/+$/, '')}${OAUTH_PREFIX}`;
    await ensureSigningKey(this.o.db, this.o.cipher).catch((err: unknown) =>
      this.o.logger.error(
        { err: (err as Error).message },
        'oauth2: could not create the first signing key',
      ),
    );
    await this.reload();
    // Expired codes, tokens, sessions and interactions are deleted a day after expiry, hourly;
    // a DELETE by several replicas at once is harmless.
    this.pruner = setInterval(() => void this.prune(), 3_600_000);
    this.pruner.unref();
    this.timer = setInterval(
      () => void this.reloadIfKeysChanged(),
      this.o.keyCheckIntervalMs ?? 60_000,
    );
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    if (this.pruner) clearInterval(this.pruner);
  }

  /** Deletes artefacts more than a day past their expiry; answers how many. */
  async prune(): Promise<number> {
    try {
      return await pruneExpiredArtifacts(this.o.db);
    } catch (err) {
      this.o.logger.warn({ err: (err as Error).message }, 'oauth2 prune failed');
      return 0;
    }
  }

  /** Rebuilds the provider from the stored keys; unreadable keys leave the server unavailable. */
  async reload(): Promise<void> {
    if (!this.issuer) return;
    // Tried again when the stored key set changes (a rotation), not on every check.
    this.kids = await this.keyFingerprint().catch(() => '');
    try {
      const keys = await loadSigningKeys(
        this.o.db,
        this.o.cipher,
        KEY_PUBLISH_WINDOW_MS,
        (kid, err) =>
          this.o.logger.error(
            { kid, err: err.message },
            'oauth2: a retired signing key is left out of /jwks',
          ),
      );
      const provider = createProvider({
        issuer: this.issuer,
        db: this.o.db,
        clients: this.o.clients,
        accounts: this.o.accounts,
        signingKeys: keys,
        cookieSecret: this.o.cookieSecret,
      });
      provider.on('server_error', (_ctx, err) =>
        this.o.logger.error({ err: err.message }, 'oauth2 server error'),
      );
      this.provider = provider;
      this.callback = provider.callback();
    } catch (err) {
      this.provider = undefined;
      this.callback = undefined;

      const message = err instanceof SigningKeyUnavailable ? err.message : (err as Error).message;
      this.o.logger.error(
        { err: message },
        'oauth2 server unavailable: signing keys cannot be loaded',
      );
    }
  }

  private async keyFingerprint(): Promise<string> {
    const rows = await listPublishedKeys(this.o.db, KEY_PUBLISH_WINDOW_MS);
    return rows.map((r) => `${r.kid}:${r.retired_at ? 'r' : 'c'}`).join(',');
  }

  private async reloadIfKeysChanged() {
    try {
      if ((await this.keyFingerprint()) !== this.kids) await this.reload();
    } catch (err) {
      this.o.logger.warn({ err: (err as Error).message }, 'oauth2 key check failed');
    }
  }

  /** Middleware mounted at OAUTH_PREFIX (the prefix already stripped from `req.url`). */
  readonly handle = (req: IncomingMessage, res: ServerResponse, next: Next): void => {
    const path = req.url ?? '/';
    if (OWN_ROUTES.test(path)) {
      next();
      return;
    }
    const callback = this.callback;
    if (!callback) {
      bare(res, 503, {
        error: 'temporarily_unavailable',
        error_description: 'the authorization server is not available',
      });
      return;
    }
    // Endpoint URLs come from the configured issuer, never from what the client sent as Host.
    const issuer = new URL(this.issuer!);
    req.headers['x-forwarded-host'] = issuer.host;
    req.headers['x-forwarded-proto'] = issuer.protocol.slice(0, -1);
    if (req.method === 'POST' && LIMITED.test(path)) {
      void this.limited(req, res, callback);
      return;
    }
    callback(req, res);
  };

  private async limited(
    req: IncomingMessage,
    res: ServerResponse,
    callback: (req: IncomingMessage, res: ServerResponse) => void,
  ) {
    let body: string;
    try {
      body = await readBody(req);
    } catch (err) {
      if (!(err instanceof BodyTooLarge)) {
        res.destroy();
        return;
      }
      // The rest of the body is never read: answer, then drop the connection.
      res.on('finish', () => req.destroy());
      bare(
        res,
        413,
        { error: 'invalid_request', error_description: 'request body too large' },
        { connection: 'close' },
      );
      return;
    }
    const waitMs = await this.rateLimit
      .check(req.headers.authorization, body)
      .catch(() => undefined);
    if (waitMs !== undefined) {
      bare(
        res,
        429,
        { error: 'slow_down', error_description: 'too many requests for this client' },
        { 'retry-after': String(Math.ceil(waitMs / 1000)) },
      );
      return;
    }
    // oidc-provider takes an already-read body from `req.body`.
    (req as IncomingMessage & { body?: string }).body = body;
    callback(req, res);
  }
}
