import type { ErrorTextLookup } from '../../platform/http/error-texts.js';
import { readFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import httpProxy from '@fastify/http-proxy';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Agent, request as undiciRequest } from 'undici';
import type { ServiceRoute } from '../../platform/module.js';
import type { Settings } from '../../config/settings.js';
import { signedUrlOf } from '../../platform/auth/guard.js';
import type { HandedOver } from '../../platform/auth/hand-over.js';
import {
  bodyDigest,
  type Principal,
  signedGatewayHeaders,
  signingKeyOf,
  stripAuthHeaders,
  UNSIGNED_PAYLOAD,
} from '../../platform/auth/principal.js';
import type { Cache } from '../../platform/cache/cache.js';
import { failOpenHandler } from '../../platform/cache/fail-open.js';
import { AppError, ERROR_CODES } from '../../platform/errors.js';
import { BODY_LIMIT_BYTES, createHttpApp, type HttpApp } from '../../platform/http/server.js';
import type { ServiceMetrics } from '../../platform/metrics/metrics.js';
import type { OperationLogRecorder } from '../../platform/audit/operation-log.js';
import { recordOperationLogs } from '../../platform/audit/operation-log-hook.js';
import type { Logger } from 'pino';
import { enforceBodyLimit } from './body-limit.js';
import { registerConsole } from './console.js';
import { HttpForwardAuth, type ForwardAuth } from './forward-auth.js';
import { withoutHopByHopHeaders } from './hop-by-hop.js';
import { handOff, type InProcessService } from './in-process.js';
import { proxyLogger } from './proxy-log.js';
import { registerSecurityHeaders } from './security-headers.js';

const OPENAPI_FILE = fileURLToPath(new URL('../../../docs/openapi.json', import.meta.url));
const READINESS_TIMEOUT_MS = 3000;

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed `X-Auth-*` headers forward-auth produced for this request. */
    gatewayAuthHeaders: Record<string, string> | null;
    /** The request body as forwarded (read whole: the signature binds it); null: no body. */
    forwardedBody: Buffer | null;
    /** True once an upstream service answered: that service records the request. */
    answeredUpstream: boolean;
    /** Forward-auth's verdict, when it was started beside the rate limiter (local auth only). */
    earlyPrincipal: Promise<Principal> | null;
    /** Set when the request goes to a service in this process: what the gateway vouches for. */
    handedOver: HandedOver | null;
  }
  interface FastifyContextConfig {
    /** The module route a proxy route serves (set on the gateway's proxy routes only). */
    gatewayRoute?: GatewayRoute;
  }
}

/** A route the gateway proxies: a module's route and the service that declared it. */
export interface GatewayRoute extends ServiceRoute {
  service: string;
}

export interface GatewayOptions {
  settings: Settings;
  logger: Logger;
  cache: Cache;
  /** Base URL of each running service, by name. */
  /** The base URL of each service, by name (the services this gateway fronts). */
  upstreams: Partial<Record<string, string>>;
  /** The routes of every service (src/start.ts derives them from the modules). */
  routes: readonly GatewayRoute[];
  metrics?: ServiceMetrics | undefined;
  /** Forward-auth; default: HTTP to the auth upstream. */
  forwardAuth?: ForwardAuth | undefined;
  /**
   * Where the gateway records the requests it answers itself (401 without a valid token, 429,
   * 413, unknown routes, 502/503 when a service is down); a request a service answered is
   * recorded by that service. Unset: refusals are not recorded.
   */
  operationLog?: OperationLogRecorder | undefined;
  /** Administrators' texts for the envelope's `message` (the kernel's, when one runs here). */
  errorTexts?: ErrorTextLookup | undefined;
  /**
   * The service apps running in this process, by name (all-in-one mode with
   * GATEWAY_IN_PROCESS): their requests are handed over in process (`handOff`) instead of sent
   * over loopback HTTP, except streamed uploads and the bare-path aliases. Default: none, every
   * request goes over HTTP to `upstreams`.
   */
  inProcess?: Partial<Record<string, InProcessService>> | undefined;
}

export async function buildGatewayApp(
  options: GatewayOptions,
): Promise<{ app: HttpApp; close(): Promise<void> }> {
  const { settings, cache, upstreams } = options;
  const app = await createHttpApp({
    service: 'gateway',
    logger: options.logger,
    // Recorded here, served on the internal metrics listener: the gateway does not route /metrics.
    trustProxy: settings.gateway.trustProxy,
    errorTexts: options.errorTexts,
  });
  if (!upstreams.auth) throw new Error('the gateway needs the auth service (AUTH_SERVICE_URL)');
  const forwardAuth: ForwardAuth = options.forwardAuth ?? new HttpForwardAuth(upstreams.auth);
  const signingKey = signingKeyOf(settings.gateway.signingSecret);
  const openapi = await readFile(OPENAPI_FILE, 'utf8').catch(() => null);

  app.decorateRequest('gatewayAuthHeaders', null);
  app.decorateRequest('forwardedBody', null);
  app.decorateRequest('answeredUpstream', false);
  app.decorateRequest('earlyPrincipal', null);
  app.decorateRequest('handedOver', null);
  registerSecurityHeaders(app);
  enforceBodyLimit(app, (request) => {
    const streamed = streamedRouteOf(options.routes, request.method, request.url);
    return streamed?.bodyLimit?.(settings) ?? BODY_LIMIT_BYTES;
  });
  const rateLimited = options.metrics?.counter(
    'gateway_rate_limited_total',
    'Requests refused by the rate limiter',
  );
  // The rate limiter fails open: a cache that is down or not answering lets requests through
  // (after at most one command timeout) instead of refusing or stalling every one of them.
  const letThrough = failOpenHandler(
    options.logger,
    'gateway rate limit',
  )({
    allowed: true,
    retryAfterMs: 0,
  });
  app.addHook('onRequest', async (request, reply) => {
    // Identity headers come only from forward-auth: whatever the client sent is dropped first.
    stripAuthHeaders(request.headers);
    const taken = cache
      .takeToken(`gw:rate:${request.ip}`, settings.gateway.rateAverage, settings.gateway.rateBurst)
      .catch(letThrough);
    // Forward-auth in this process starts now, so its cache reads (session, user entry) go out in
    // the rate limiter's round trip; a refused request's verdict is dropped unread.
    const route = request.routeOptions.config.gatewayRoute;
    if (forwardAuth.local && route && !route.isPublic?.(request.url)) {
      const verdict = forwardAuth.verify(request);
      verdict.catch(() => undefined);
      request.earlyPrincipal = verdict;
    }
    const bucket = await taken;
    if (!bucket.allowed) {
      rateLimited?.inc();
      reply.header('retry-after', String(Math.max(1, Math.ceil(bucket.retryAfterMs / 1000))));
      throw new AppError(ERROR_CODES.RATE_LIMITED);
    }
  });
  const metrics = options.metrics;
  if (options.operationLog) {
    // Only what the gateway answers itself: a service's answer is recorded by that service.
    recordOperationLogs(app, options.operationLog, {
      metrics,
      when: (request) => !request.answeredUpstream,
    });
  }
  if (metrics) {
    app.addHook('onResponse', async (request, reply) => {
      metrics.httpDuration.observe(
        {
          method: request.method,
          route: request.routeOptions.url ?? 'unmatched',
          status: String(reply.statusCode),
        },
        reply.elapsedTime / 1000,
      );
    });
  }

  // /metrics is never routed to clients; an explicit 404 keeps a future catch-all from exposing it.
  app.all('/metrics', { schema: { hide: true } }, async () => {
    throw new AppError(ERROR_CODES.NOT_FOUND);
  });

  app.get('/api/v1/openapi.json', { schema: { hide: true } }, async (_request, reply) => {
    if (!openapi) throw new AppError(ERROR_CODES.NOT_FOUND, 'OpenAPI document not built');
    return reply.type('application/json').send(openapi);
  });

  app.get('/api/v1/health/ready', { schema: { hide: true } }, async (_request, reply) => {
    const entries = await Promise.all(
      Object.entries(upstreams).map(
        async ([name, url]) => [name, await probe(`${url}/health/ready`)] as const,
      ),
    );
    const services = Object.fromEntries(entries);
    const ready = entries.every(([, result]) => result.status === 'ready');
    const data = { status: ready ? 'ready' : 'degraded', services };
    if (!ready)
      return reply.status(503).send({ code: ERROR_CODES.UNAVAILABLE, message: 'not ready', data });
    return { code: 200, message: 'success', data };
  });

  // One connection pool per service for every route to it, and a bound on how long a service
  // may keep a client waiting: for its answer to start (then 503) and between two parts of it
  // (then the client connection is cut, so a half answer never looks complete).
  const upstreamAgent = new Agent({
    headersTimeout: settings.gateway.upstreamTimeoutMs,
    bodyTimeout: settings.gateway.upstreamTimeoutMs,
  });
  for (const route of options.routes) {
    const upstream = upstreams[route.service];
    if (!upstream) continue;
    // In this process, and answering on the client's own path: handed over, not proxied. A
    // bare-path alias keeps the hop, since the proxy rewrites the Location of its answers.
    const local = route.rewritePrefix ? undefined : options.inProcess?.[route.service];
    await app.register(httpProxy, {
      upstream,
      undici: upstreamAgent,
      prefix: route.prefix,
      // No per-request "fetching from remote server" lines; proxy failures are still logged.
      disableRequestLogging: true,
      config: { gatewayRoute: route },
      rewritePrefix: route.rewritePrefix ?? route.prefix,
      preHandler: async (request: FastifyRequest, reply: FastifyReply) => {
        const principal = route.isPublic?.(request.url)
          ? null
          : await (request.earlyPrincipal ?? forwardAuth.verify(request));
        // A streamed upload goes on as it arrives (counted against the route's limit); the
        // signature says its body is not covered. Every other body is read whole and hashed.
        const streamed = streamedRouteOf([route], request.method, request.url) !== undefined;
        if (local && !streamed) {
          // Handed over in this process: what a signed set would carry, under the marker.
          const body = await readForwardedBody(request, { replay: false });
          request.handedOver = { principal, clientIp: request.ip, body };
          return;
        }
        // Over HTTP (an upload streams over loopback even in this process).
        request.log = proxyLogger(request.log, reply, route.service);
        const body = streamed ? null : await readForwardedBody(request, { replay: true });
        // Public routes get a signed set too: it carries the client address the services use.
        request.gatewayAuthHeaders = signedGatewayHeaders(
          { principal, clientIp: request.ip },
          {
            requestId: request.id,
            method: request.method,
            path: signedUrlOf(upstreamUrl(route, request.url)),
            bodySha256: body ? bodyDigest(body) : UNSIGNED_PAYLOAD,
          },
          signingKey,
        );
        // From here a failure is the service's (forward-auth above may fail on its own).
        request.upstreamService = route.service;
      },
      handler: (request, reply, dest, replyOptions) =>
        local && request.handedOver
          ? handOff(request, reply, {
              name: route.service,
              service: local,
              dest,
              context: request.handedOver,
              timeoutMs: settings.gateway.upstreamTimeoutMs,
            })
          : reply.from(dest, replyOptions),
      replyOptions: {
        // Never resent: a retry would carry the same signed set, which the service refuses as a
        // replay (the library would otherwise retry a GET answered 503 up to ten times).
        retryDelay: () => null,
        rewriteHeaders: (headers, request) => {
          if (request) request.answeredUpstream = true;
          return headers;
        },
        rewriteRequestHeaders: (request, headers) => {
          const { 'content-length': _sent, ...endToEnd } = withoutHopByHopHeaders(
            headers,
            request.headers.connection,
          );
          return {
            ...endToEnd,
            // The body goes out whole, so with its exact length (never chunked).
            ...(request.forwardedBody
              ? { 'content-length': String(request.forwardedBody.length) }
              : streamedLength(request)),
            'x-request-id': request.id,
            // The services see the client address the gateway established, never a client's claim.
            'x-forwarded-for': request.ip,
            ...request.gatewayAuthHeaders,
          };
        },
      },
    });
  }

  // Last: its catch-all must not take a path any proxy above declares.
  await registerConsole(app, { consoleDir: settings.gateway.consoleDir }, openapi);

  return {
    app,
    async close() {
      await app.close();
      await upstreamAgent.destroy();
      await forwardAuth.close();
    },
  };
}

const NO_BODY = Buffer.alloc(0);

/**
 * Reads the body the service will get, whole, before anything goes to it: the signature in the
 * request headers binds its digest (over HTTP), or it is handed over with the request (in this
 * process). It is bounded by the body limit (the counting stream fails past it, answered 413),
 * so at most 1 MiB per request in flight is held. With `replay` the proxy then sends these bytes
 * instead of the client's stream.
 */
async function readForwardedBody(
  request: FastifyRequest,
  { replay }: { replay: boolean },
): Promise<Buffer> {
  if (!(request.body instanceof Readable)) return NO_BODY;
  const chunks: Buffer[] = [];
  for await (const chunk of request.body) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks);
  request.forwardedBody = body;
  if (replay) request.body = Readable.from([body], { objectMode: false });
  return body;
}

/** The route that streams this request's body, if any (path as the service receives it). */
function streamedRouteOf(
  routes: readonly GatewayRoute[],
  method: string,
  url: string,
): GatewayRoute | undefined {
  return routes.find((route) => {
    if (!route.streamsBody || !isUnder(route.prefix, url)) return false;
    return route.streamsBody(method, signedUrlOf(upstreamUrl(route, url)).split('?')[0]!);
  });
}

const isUnder = (prefix: string, url: string) =>
  url === prefix || url.startsWith(`${prefix}/`) || url.startsWith(`${prefix}?`);

/** A streamed body keeps the length the client declared (the service checks quota with it). */
function streamedLength(request: {
  headers: FastifyRequest['headers'];
  body: unknown;
}): Record<string, string> {
  const length = request.headers['content-length'];
  return typeof length === 'string' && request.body instanceof Readable
    ? { 'content-length': length }
    : {};
}

/** The URL the proxy sends upstream: the route's prefix replaced by its rewrite. */
function upstreamUrl(route: GatewayRoute, url: string): string {
  if (!route.rewritePrefix || !url.startsWith(route.prefix)) return url;
  return route.rewritePrefix + url.slice(route.prefix.length);
}

async function probe(url: string): Promise<{ status: 'ready' | 'down'; latency_ms: number }> {
  const started = performance.now();
  try {
    const response = await undiciRequest(url, {
      headersTimeout: READINESS_TIMEOUT_MS,
      bodyTimeout: READINESS_TIMEOUT_MS,
    });
    await response.body.dump();
    return {
      status: response.statusCode === 200 ? 'ready' : 'down',
      latency_ms: Math.round(performance.now() - started),
    };
  } catch {
    return { status: 'down', latency_ms: Math.round(performance.now() - started) };
  }
}
