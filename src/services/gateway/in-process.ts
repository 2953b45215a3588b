import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { handOver, type HandedOver } from '../../platform/auth/hand-over.js';
import { DependencyDownError } from '../../platform/dependency-errors.js';
import { AppError } from '../../platform/errors.js';
import { withoutHopByHopHeaders } from './hop-by-hop.js';

/**
 * A service app running in the gateway's process (all-in-one mode): its router takes a raw
 * request and answers on the raw response, running every hook, check and handler of the
 * service exactly as for a request that arrived over HTTP.
 */
export interface InProcessService {
  routing(req: IncomingMessage, res: ServerResponse): void;
}

/** Resolves relative targets the way the HTTP hop's URL parser does; never contacted. */
const BASE = 'http://in-process.invalid';

export interface HandOff {
  /** The service's name (the dependency a timeout names). */
  name: string;
  service: InProcessService;
  /** The path the proxy route resolved (prefix rewritten, traversal refused). */
  dest: string;
  /** What the gateway vouches for: principal, client address, the body it read whole. */
  context: HandedOver;
  /** How long the service may take to start its answer (GATEWAY_UPSTREAM_TIMEOUT). */
  timeoutMs: number;
}

/**
 * Hands a request the gateway has checked (rate limit, body limit, forward-auth, `X-Auth-*`
 * stripped) to a service app in this process instead of sending it over loopback HTTP. The
 * service sees what the HTTP hop would send it (the same URL, headers without the hop-by-hop
 * ones, the body read whole, the request id) and, instead of a signed `X-Auth-*` set, the
 * gateway's context under a marker only this process can set (`handOver`). It answers on the
 * client's response itself: the gateway's headers (security headers, request id) are on the
 * response already, a service's own value of one wins, and the service records the request in
 * its operation log as it records every request it answers.
 *
 * Resolves once the answer is complete or the client has gone. When the service has not started
 * answering within `timeoutMs`, the request is the gateway's again (its URL and headers as the
 * client sent them) and the promise rejects with 503, which the gateway answers and records, as
 * it does for an upstream that does not answer over HTTP.
 */
export function handOff(
  request: FastifyRequest,
  reply: FastifyReply,
  { name, service, dest, context, timeoutMs }: HandOff,
): Promise<void> {
  const raw = request.raw;
  const res = reply.raw;
  const clientUrl = raw.url;
  const clientHeaders = raw.headers;
  const query = request.url.indexOf('?');
  raw.url = new URL(dest, BASE).pathname + (query < 0 ? '' : request.url.slice(query));
  raw.headers = serviceHeaders(request, context.body);
  for (const [header, value] of Object.entries(reply.getHeaders())) {
    if (value !== undefined) res.setHeader(header, value);
  }
  handOver(raw, context);
  request.answeredUpstream = true;
  return new Promise<void>((resolve, reject) => {
    const answered = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      // Started: it goes on to its end, written straight to the client.
      if (res.headersSent) return;
      res.off('finish', answered);
      res.off('close', answered);
      raw.url = clientUrl;
      raw.headers = clientHeaders;
      request.answeredUpstream = false;
      const cause = new Error(`no answer within ${timeoutMs} ms`);
      reject(AppError.unavailable(new DependencyDownError(name, cause)));
    }, timeoutMs);
    res.once('finish', answered);
    res.once('close', answered);
    try {
      service.routing(raw, res);
    } catch (err) {
      clearTimeout(timer);
      reject(err as Error);
    }
  });
}

/**
 * The headers the service receives, as over the HTTP hop: the client's end-to-end headers (the
 * gateway removed its `X-Auth-*` headers first), the body's exact length when it has one, and
 * the gateway's request id. The client address travels in the marked context.
 */
function serviceHeaders(request: FastifyRequest, body: Buffer): IncomingHttpHeaders {
  const { 'content-length': _sent, ...endToEnd } = withoutHopByHopHeaders(
    request.headers,
    request.headers.connection,
  );
  return {
    ...endToEnd,
    ...(request.forwardedBody ? { 'content-length': String(body.length) } : {}),
    'x-request-id': request.id,
  };
}
