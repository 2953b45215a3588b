import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Logger } from 'pino';
import type { Cache } from '../../../platform/cache/cache.js';
import { sha256 } from './artifacts.repo.js';
import type { ClientStore } from './clients.repo.js';

/** `token_rate_per_minute` 0 means this. */
export const DEFAULT_TOKEN_RATE_PER_MINUTE = 120;
/** oidc-provider's own limit on form bodies. */
const BODY_LIMIT = 56 * 1024;

export class BodyTooLarge extends Error {}

/** Reads a form body once; the provider is handed the text (it accepts an already-read body). */
export async function readBody(req: IncomingMessage & { body?: unknown }): Promise<string> {
  // Through the gateway the platform has read it already, to check the signature over it.
  if (Buffer.isBuffer(req.body)) {
    if (req.body.length > BODY_LIMIT) throw new BodyTooLarge();
    return req.body.toString('utf8');
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > BODY_LIMIT) throw new BodyTooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function decodeFormComponent(value: string): string | undefined {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}

/** The client credentials a request presents (Basic header, or the form's client_id/secret). */
export function presentedCredentials(
  authorization: string | undefined,
  form: URLSearchParams,
): { clientId: string; secret: string | undefined } | undefined {
  if (authorization?.startsWith('Basic ')) {
    const decoded = Buffer.from(authorization.slice(6), 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) return undefined;
    const clientId = decodeFormComponent(decoded.slice(0, colon));
    const secret = decodeFormComponent(decoded.slice(colon + 1));
    return clientId && secret !== undefined ? { clientId, secret } : undefined;
  }
  const clientId = form.get('client_id');
  if (!clientId) return undefined;
  return { clientId, secret: form.get('client_secret') ?? undefined };
}

const sameHash = (a: string, b: string) =>
  a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/**
 * The per-client limit on token and introspect: counted only for a client that authenticates
 * (a stranger cannot spend a client's budget). A cache failure lets the request through.
 */
export class ClientRateLimit {
  constructor(private readonly o: { clients: ClientStore; cache: Cache; logger: Logger }) {}

  /** Milliseconds to wait when the client is over its rate; undefined when it may proceed. */
  async check(authorization: string | undefined, body: string): Promise<number | undefined> {
    const credentials = presentedCredentials(authorization, new URLSearchParams(body));
    if (!credentials) return undefined;
    const client = await this.o.clients.find(credentials.clientId);
    if (!client) return undefined;
    const authenticated = client.public
      ? credentials.secret === undefined
      : credentials.secret !== undefined &&
        client.secret_hash !== null &&
        sameHash(client.secret_hash, sha256(credentials.secret));
    if (!authenticated) return undefined;
    const perMinute = client.token_rate_per_minute || DEFAULT_TOKEN_RATE_PER_MINUTE;
    try {
      const bucket = await this.o.cache.takeToken(
        `oauth2:rate:${client.client_id}`,
        perMinute / 60,
        perMinute,
      );
      return bucket.allowed ? undefined : Math.max(1, bucket.retryAfterMs);
    } catch (err) {
      this.o.logger.warn(
        { err: (err as Error).message, client_id: client.client_id },
        'oauth2 rate limit unavailable: request let through',
      );
      return undefined;
    }
  }
}
