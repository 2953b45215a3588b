import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyError,
  type FastifyInstance,
  type RawServerDefault,
} from 'fastify';
import swagger from '@fastify/swagger';
import {
  jsonSchemaTransform,
  jsonSchemaTransformObject,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { Logger } from 'pino';
import type { TrustProxy } from '../../config/trust-proxy.js';
import type { ServiceMetrics } from '../metrics/metrics.js';
import { recordOperationLogs } from '../audit/operation-log-hook.js';
import type { OperationLogRecorder } from '../audit/operation-log.js';
import { AppError, ERROR_CODES } from '../errors.js';
import { discardRestOfBody } from './body-limit.js';
import { handleClientError, handleError } from './error-handler.js';
import type { ErrorTextLookup } from './error-texts.js';
import { withStatementTally, type StatementTally } from '../db/statements.js';
import { lazyChildLogger } from '../logging/request-logger.js';

export const BODY_LIMIT_BYTES = 1024 * 1024;
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Keeps a client's well-formed `X-Request-Id`, otherwise mints a UUID. */
export function requestIdOf(req: IncomingMessage): string {
  const sent = req.headers['x-request-id'];
  return typeof sent === 'string' && REQUEST_ID.test(sent) ? sent : randomUUID();
}

const trustHops = (hops: number) => (_address: string, hop: number) => hop < hops;

export interface HttpAppOptions {
  service: string;
  logger: Logger;
  /** Serves `/metrics` from this registry when given (METRICS_ENABLED). */
  metrics?: ServiceMetrics | undefined;
  trustProxy?: TrustProxy;
  /** Where this app's `/api/v1` requests are recorded (the kernel's recorder); unset: nowhere. */
  operationLog?: OperationLogRecorder | undefined;
  /** Administrators' texts for the envelope's `message` (the kernel's); unset: the defaults. */
  errorTexts?: ErrorTextLookup | undefined;
}

export type HttpApp = FastifyInstance<
  RawServerDefault,
  IncomingMessage,
  ServerResponse,
  FastifyBaseLogger,
  ZodTypeProvider
>;

/**
 * A Fastify app with the platform's conventions: request ids, the envelope for every error
 * (no stack traces; Fastify's and Node's own refusals included), JSON bodies only, the 1 MiB
 * body limit, 404 envelope for unknown routes, metrics.
 */
/** `%00` anywhere after the `?`: a linear scan of the raw URL. */
export function hasNulInQuery(url: string): boolean {
  const q = url.indexOf('?');
  return q >= 0 && url.slice(q).toLowerCase().includes('%00');
}

export async function createHttpApp(options: HttpAppOptions): Promise<HttpApp> {
  const app = Fastify({
    loggerInstance: options.logger.child({ service: options.service }),
    // A request's logger (with its id) is made only when something logs through it.
    childLoggerFactory: (logger, bindings, childOptions) =>
      lazyChildLogger(logger as Logger, bindings, childOptions),
    genReqId: requestIdOf,
    logController: new LogController({
      requestIdLogLabel: 'request_id',
      disableRequestLogging: true,
    }),
    bodyLimit: BODY_LIMIT_BYTES,
    // A hop count as proxy-addr's function form (Fastify's types omit the number form).
    trustProxy:
      typeof options.trustProxy === 'number'
        ? trustHops(options.trustProxy)
        : (options.trustProxy ?? false),
    // Client-sent `__proto__` / `constructor.prototype` keys are refused, not silently kept.
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    // Errors Fastify answers before routing (bad percent-encoding, an over-long path
    // parameter) and those of Node's parser go through the envelope too.
    frameworkErrors: (error, request, reply) =>
      handleError(error, request, reply, options.errorTexts),
    clientErrorHandler: handleClientError,
  }).withTypeProvider<ZodTypeProvider>() as unknown as HttpApp;

  // Every route takes JSON bodies (API.md) and nothing else: Fastify's text/plain parser would
  // hand a route a string it never declared. Anything but JSON is 415 (41500); a route that
  // takes another type registers its parser in its own plugin.
  app.removeContentTypeParser('text/plain');
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // Collects every route's zod schemas; the OpenAPI document is generated from them.
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Approva', version: '0' },
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
    // Schemas registered with an id (recursive ones need it) become components they $ref.
    transformObject: jsonSchemaTransformObject,
  });
  app.setErrorHandler((error: FastifyError, request, reply) =>
    handleError(error, request, reply, options.errorTexts),
  );
  app.setNotFoundHandler((request) => {
    throw new AppError(
      ERROR_CODES.NOT_FOUND,
      `no route for ${request.method} ${request.url.split('?')[0]}`,
    );
  });

  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
    // PostgreSQL text cannot hold NUL: refuse it in the query before any handler runs, so a
    // streamed answer (a CSV export) never starts on a filter its query will fail on.
    if (hasNulInQuery(request.url)) {
      throw new AppError(ERROR_CODES.BAD_REQUEST, 'a query value holds a NUL character');
    }
  });
  // Answered before its body was read: drop the rest (bounded) so the connection goes on.
  app.addHook('onResponse', (request, _reply, done) => {
    discardRestOfBody(request.raw);
    done();
  });

  const metrics = options.metrics;
  // Operation logs: recorded after the response, never delaying or failing it.
  const operationLog = options.operationLog;
  if (operationLog) recordOperationLogs(app, operationLog, { metrics });
  if (metrics) {
    // Each request's statements are tallied in its own async scope (work it starts included).
    const tallies = new WeakMap<object, StatementTally>();
    app.addHook('onRequest', (request, _reply, done) => {
      const tally = { count: 0 };
      tallies.set(request, tally);
      withStatementTally(tally, done);
    });
    app.addHook('onResponse', async (request, reply) => {
      const tally = tallies.get(request);
      if (tally) {
        metrics.dbStatements.observe(
          { method: request.method, route: request.routeOptions.url ?? 'unmatched' },
          tally.count,
        );
      }
      metrics.httpDuration.observe(
        {
          method: request.method,
          route: request.routeOptions.url ?? 'unmatched',
          status: String(reply.statusCode),
        },
        reply.elapsedTime / 1000,
      );
      if (reply.statusCode >= 500) {
        request.log.warn(
          { status: reply.statusCode, url: request.url },
          'request completed with error',
        );
      }
    });
    app.get('/metrics', { schema: { hide: true } }, async (_request, reply) => {
      reply.type(metrics.contentType);
      return metrics.exposition();
    });
  }
  return app;
}
