import type { FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import type { HttpApp } from '../../../platform/http/server.js';
import { AppError, ERROR_CODES } from '../../../platform/errors.js';
import { ok } from '../../../platform/http/envelope.js';
import { parseIdempotencyKey, requestHash, IDEMPOTENCY_HEADER } from './idempotency-key.js';
import type { KeyRef } from './idempotency.repo.js';
import type { IdempotencyService, Reservation } from './idempotency.service.js';
import { logSurvived } from '../../../platform/dependency-errors.js';

/** Whose key it is: keys are scoped to one tenant and one user (0 for internal callers). */
export type IdempotencyScopeOf = (request: FastifyRequest) => { tenantId: number; userId: number };

/**
 * The answer's `data` as the route would give it now, for a key whose change committed but whose
 * answer was lost with its process (a task action: the task's detail). Without one, such a
 * retry is told the request was carried out (409), never run again.
 */
export type RebuildAnswer = (request: FastifyRequest) => Promise<unknown>;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route honours Idempotency-Key: its handler runs holding the reservation. */
    idempotencyKeyed?: boolean;
    rebuildAnswer?: RebuildAnswer;
  }
}

/** Marks a replayed answer, so clients and logs can tell it from a fresh one. */
export const REPLAYED_HEADER = 'idempotent-replayed';

/**
 * Makes the handler of every keyed route run holding its request's reservation, so the
 * transactions it opens record the key with the change (`IdempotencyService.fence`). Register
 * before the routes.
 */
export function runKeyedHandlersWithReservation(app: HttpApp, service: IdempotencyService) {
  app.addHook('onRoute', (route) => {
    if (!route.config?.idempotencyKeyed) return;
    const handler = route.handler as RouteHandlerMethod;
    route.handler = function keyed(this: unknown, request, reply) {
      const reservation = service.heldBy(request);
      const run = () => handler.call(this as never, request, reply);
      return reservation ? service.run(reservation, run) : run();
    } as RouteHandlerMethod;
  });
}

/**
 * Route hooks that make a POST honour `Idempotency-Key`. `preHandler` runs after validation and
 * after the route's own guards (list them first): it reserves the key, or answers at once with
 * the stored response (or, for a key whose change committed but whose answer was lost, the one
 * `rebuild` gives). `onSend` stores what is sent (the exact text and status) or, for a 5xx,
 * releases the key; `onResponse` releases a key whose answer never went through `onSend`.
 * Without the header the route behaves as before.
 */
export function idempotencyHooks(
  service: IdempotencyService,
  scopeOf: IdempotencyScopeOf,
  rebuild?: RebuildAnswer,
) {
  const rebuilding = new WeakMap<FastifyRequest, KeyRef>();

  const preHandler = async (request: FastifyRequest, reply: FastifyReply) => {
    const key = parseIdempotencyKey(request.headers[IDEMPOTENCY_HEADER]);
    if (key === undefined) return;
    const path = request.url.split('?')[0]!;
    const ref = { ...scopeOf(request), key };
    const outcome = await service.begin(ref, requestHash(request.method, path, request.body));
    if (outcome.kind === 'run') {
      service.hold(request, outcome.reservation);
      return;
    }
    request.log.info({ idempotency_key: key }, 'idempotent replay');
    reply.header(REPLAYED_HEADER, 'true');
    if (outcome.kind === 'committed') {
      if (!rebuild) {
        throw new AppError(
          ERROR_CODES.CONFLICT,
          'the request with this Idempotency-Key was carried out, but its answer was lost',
          { idempotency_key: key },
        );
      }
      const data = await rebuild(request);
      rebuilding.set(request, ref);
      return reply.code(200).send(ok(data));
    }
    return reply
      .code(outcome.statusCode)
      .type('application/json; charset=utf-8')
      .send(outcome.body);
  };

  const onSend = async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const rebuilt = rebuilding.get(request);
    if (rebuilt && typeof payload === 'string' && reply.statusCode === 200) {
      rebuilding.delete(request);
      // Later retries replay these very bytes.
      await service.finishCommitted(rebuilt, reply.statusCode, payload).catch((err: unknown) => {
        logSurvived(
          request.log,
          err,
          { idempotency_key: rebuilt.key },
          'idempotency key not stored',
        );
      });
      return payload;
    }
    const reservation = service.heldBy(request);
    if (!reservation) return payload;
    service.drop(request);
    try {
      // Only 2xx and 4xx answers are kept; after a 5xx the client may retry with the same key.
      if (typeof payload === 'string' && reply.statusCode >= 200 && reply.statusCode < 500) {
        await service.finish(reservation, reply.statusCode, payload);
      } else {
        await service.release(reservation);
      }
    } catch (err) {
      // The action's answer still goes out; the key stays pending until it is abandoned.
      logSurvived(
        request.log,
        err,
        { idempotency_key: reservation.key },
        'idempotency key not stored',
      );
    }
    return payload;
  };

  const onResponse = async (request: FastifyRequest) => {
    const reservation: Reservation | undefined = service.heldBy(request);
    if (!reservation) return;
    service.drop(request);
    await service.release(reservation).catch((err: unknown) => {
      logSurvived(
        request.log,
        err,
        { idempotency_key: reservation.key },
        'idempotency key not released',
      );
    });
  };

  return {
    preHandler,
    onSend,
    onResponse,
    config: { idempotencyKeyed: true, rebuildAnswer: rebuild },
  };
}
