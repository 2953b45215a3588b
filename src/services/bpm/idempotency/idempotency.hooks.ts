import type { FastifyReply, FastifyRequest } from 'fastify';
import { parseIdempotencyKey, requestHash, IDEMPOTENCY_HEADER } from './idempotency-key.js';
import type { IdempotencyService, Reservation } from './idempotency.service.js';

/** Whose key it is: keys are scoped to one tenant and one user (0 for internal callers). */
export type IdempotencyScopeOf = (request: FastifyRequest) => { tenantId: number; userId: number };

/** Marks a replayed answer, so clients and logs can tell it from a fresh one. */
export const REPLAYED_HEADER = 'idempotent-replayed';

/**
 * Route hooks that make a POST honour `Idempotency-Key`. `preHandler` runs after validation and
 * after the route's own guards (list them first): it reserves the key, or answers at once with
 * the stored response. `onSend` stores what is sent (the exact text and status) or, for a 5xx,
 * releases the key; `onResponse` releases a key whose answer never went through `onSend`.
 * Without the header the route behaves as before.
 */
export function idempotencyHooks(service: IdempotencyService, scopeOf: IdempotencyScopeOf) {
  const held = new WeakMap<FastifyRequest, Reservation>();

  const preHandler = async (request: FastifyRequest, reply: FastifyReply) => {
    const key = parseIdempotencyKey(request.headers[IDEMPOTENCY_HEADER]);
    if (key === undefined) return;
    const path = request.url.split('?')[0]!;
    const outcome = await service.begin(
      { ...scopeOf(request), key },
      requestHash(request.method, path, request.body),
    );
    if (outcome.kind === 'run') {
      held.set(request, outcome.reservation);
      return;
    }
    request.log.info({ idempotency_key: key }, 'idempotent replay');
    return reply
      .code(outcome.statusCode)
      .header(REPLAYED_HEADER, 'true')
      .type('application/json; charset=utf-8')
      .send(outcome.body);
  };

  const onSend = async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const reservation = held.get(request);
    if (!reservation) return payload;
    held.delete(request);
    try {
      // Only 2xx and 4xx answers are kept; after a 5xx the client may retry with the same key.
      if (typeof payload === 'string' && reply.statusCode >= 200 && reply.statusCode < 500) {
        await service.finish(reservation, reply.statusCode, payload);
      } else {
        await service.release(reservation);
      }
    } catch (err) {
      // The action's answer still goes out; the key stays pending until it is abandoned.
      request.log.error({ err, idempotency_key: reservation.key }, 'idempotency key not stored');
    }
    return payload;
  };

  const onResponse = async (request: FastifyRequest) => {
    const reservation = held.get(request);
    if (!reservation) return;
    held.delete(request);
    await service.release(reservation).catch((err: unknown) => {
      request.log.error({ err, idempotency_key: reservation.key }, 'idempotency key not released');
    });
  };

  return { preHandler, onSend, onResponse };
}
