import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import type { Cache } from '../cache/cache.js';
import { BODY_LIMIT_BYTES, type HttpApp } from '../http/server.js';
import { AppError, ERROR_CODES } from '../errors.js';
import { normalizePath } from '../http/request-path.js';
import { takeHandedOver } from './hand-over.js';
import {
  bodyDigest,
  gatewayContextFromHeaders,
  hasGatewayHeaders,
  NONCE_TTL_MS,
  signingKeyOf,
  type GatewayContext,
  type Principal,
  type SigningKey,
  UNSIGNED_PAYLOAD,
} from './principal.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set from the gateway's signed `X-Auth-*` headers; null for anonymous requests. */
    principal: Principal | null;
    /** The body read to check the gateway's signature; null when none was read. */
    verifiedBody: Buffer | null;
  }
}

/**
 * The URL a gateway signature covers: the path normalised (or raw when it does not decode) and
 * the query exactly as sent, so a captured set cannot be replayed with other query parameters.
 */
export function signedUrlOf(url: string): string {
  const query = url.indexOf('?');
  const path = query < 0 ? url : url.slice(0, query);
  return (normalizePath(path) ?? path) + (query < 0 ? '' : url.slice(query));
}

const EMPTY_BODY = Buffer.alloc(0);
/** Methods whose body Fastify never parses. */
const BODYLESS = new Set(['GET', 'HEAD', 'TRACE']);

export interface GatewayTrustOptions {
  signingSecret: string;
  /** Where accepted nonces are remembered: the platform cache, shared by every replica. */
  nonces: Cache;
  /**
   * The requests (method, path) of this service whose body the gateway streams unhashed: their
   * set must carry UNSIGNED_PAYLOAD and the body is left to the route. Unset: none.
   */
  streamsBody?: ((method: string, path: string) => boolean) | undefined;
}

/**
 * The request body, read whole (it is bounded: the gateway forwards at most the body limit) so
 * its digest can be checked against the signature before anything acts on the request. The
 * bytes are handed on: to Fastify's parsers by the preParsing hook below, and to middleware that
 * reads the raw request itself (the OAuth2 server) as `raw.body`, since the stream is spent.
 */
async function readBody(request: FastifyRequest): Promise<Buffer> {
  const { headers } = request.raw;
  if (headers['transfer-encoding'] === undefined && Number(headers['content-length'] ?? 0) === 0)
    return EMPTY_BODY;
  const chunks: Buffer[] = [];
  let size = 0;
  // Not destroyed on a refusal: the platform drops the rest of the body after the answer.
  for await (const chunk of request.raw.iterator({ destroyOnReturn: false })) {
    size += (chunk as Buffer).length;
    if (size > BODY_LIMIT_BYTES) throw new AppError(ERROR_CODES.BODY_TOO_LARGE);
    chunks.push(chunk as Buffer);
  }
  return keepVerifiedBody(request, Buffer.concat(chunks, size));
}

/** The body the route will parse, in place of the spent stream (see `readBody`). */
function keepVerifiedBody(request: FastifyRequest, body: Buffer): Buffer {
  request.verifiedBody = body;
  (request.raw as IncomingMessage & { body?: Buffer }).body = body;
  return body;
}

/**
 * The one check of the gateway's signed header set, for every service. The client address comes
 * from that set or from the socket, never from a client's `X-Forwarded-For`: the header is
 * removed before anything reads `request.ip`, and set back only to the address the gateway
 * signed (the services trust exactly one hop). A set that fails verification, or whose nonce
 * was already accepted (by any replica: the cache is shared), is refused with 401.
 */
async function verifiedContext(
  request: FastifyRequest,
  options: GatewayTrustOptions & { key: SigningKey },
): Promise<GatewayContext | null> {
  delete request.raw.headers['x-forwarded-for'];
  // Handed over by the gateway in this process: vouched for by the marker, nothing to verify.
  const handed = takeHandedOver(request.raw);
  if (handed) {
    keepVerifiedBody(request, handed.body);
    request.raw.headers['x-forwarded-for'] = handed.clientIp;
    return handed;
  }
  if (!hasGatewayHeaders(request.raw.headers)) return null;
  const path = signedUrlOf(request.url);
  // A streamed route's body is not read here (it may be far beyond the body limit); the set
  // must say so, and only a route this service declares streamed takes such a set.
  const streamed = options.streamsBody?.(request.method, path.split('?')[0]!) ?? false;
  const bodySha256 = streamed ? UNSIGNED_PAYLOAD : bodyDigest(await readBody(request));
  const context = gatewayContextFromHeaders(
    request.raw.headers,
    { requestId: request.id, method: request.method, path, bodySha256 },
    options.key,
  );
  if (!context) return null;
  let fresh: boolean;
  try {
    fresh = await options.nonces.setIfAbsent(`gw:nonce:${context.nonce}`, '1', NONCE_TTL_MS);
  } catch (err) {
    // Fail closed: without the store a replay could not be told from the original. The error
    // handler logs the cause once, as a warning.
    throw AppError.unavailable(err as Error, 'identity verification unavailable');
  }
  if (!fresh) throw new AppError(ERROR_CODES.UNAUTHENTICATED, 'untrusted identity headers');
  request.raw.headers['x-forwarded-for'] = context.clientIp;
  return context;
}

/** Hands the body read for verification to Fastify's parsers (the raw stream is spent). */
function replayVerifiedBody(app: HttpApp): void {
  app.decorateRequest('verifiedBody', null);
  // A callback hook: no promise per request. A GET's (empty) body is never parsed: left as is.
  app.addHook('preParsing', (request, _reply, payload, done) => {
    const body = request.verifiedBody;
    if (!body || (body.length === 0 && BODYLESS.has(request.method))) done(null, payload);
    else done(null, Readable.from([body], { objectMode: false }));
  });
}

/** Verifies the gateway's signed identity headers on every request of a service. */
export function trustGatewayHeaders(app: HttpApp, options: GatewayTrustOptions): void {
  const trust = { ...options, key: signingKeyOf(options.signingSecret) };
  app.decorateRequest('principal', null);
  replayVerifiedBody(app);
  app.addHook('onRequest', async (request) => {
    request.principal = (await verifiedContext(request, trust))?.principal ?? null;
  });
}

/**
 * For a service that checks Bearer tokens itself (BPM): only the client address is taken from
 * the gateway's signed set, verified like everywhere else; no set leaves the socket address.
 */
export function trustGatewayClientIp(app: HttpApp, options: GatewayTrustOptions): void {
  const trust = { ...options, key: signingKeyOf(options.signingSecret) };
  replayVerifiedBody(app);
  app.addHook('onRequest', async (request) => {
    await verifiedContext(request, trust);
  });
}

/** Checks a bearer token and returns its principal (the auth service's verify). */
export type BearerVerifier = (
  authorization: string | undefined,
  method: string,
  path: string,
) => Promise<Principal>;

/**
 * For a service outside forward-auth (BPM): it validates the Bearer token itself on every
 * request except `isPublic` ones; `X-Auth-*` headers are never trusted there.
 */
export function verifyBearerTokens(
  app: HttpApp,
  verify: BearerVerifier,
  isPublic: (path: string) => boolean,
): void {
  app.decorateRequest('principal', null);
  app.addHook('onRequest', async (request) => {
    const path = request.url.split('?')[0]!;
    if (isPublic(path)) return;
    request.principal = await verify(request.headers.authorization, request.method, path);
  });
}

/** The caller, or 401 when the request carries no verified identity. */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new AppError(ERROR_CODES.UNAUTHENTICATED);
  return request.principal;
}

/** Route pre-handler: platform administrators only. */
export async function requirePlatformAdmin(request: FastifyRequest) {
  if (!principalOf(request).platformAdmin) {
    throw new AppError(ERROR_CODES.FORBIDDEN, 'platform administrator only');
  }
}
