import type { FastifyRequest } from 'fastify';
import { principalOf } from '../../../platform/auth/guard.js';
import { idempotencyHooks, type RebuildAnswer } from './idempotency.hooks.js';
import type { IdempotencyService } from './idempotency.service.js';

/**
 * Route options that make a start or an action honour `Idempotency-Key`, keyed to the caller's
 * tenant and user. The route's own guards run before the key is reserved, so a refused caller
 * never holds one.
 */
export function callerKeyed(idempotency: IdempotencyService) {
  const scopeOf = (request: FastifyRequest) => {
    const principal = principalOf(request);
    return { tenantId: principal.tenantId, userId: principal.userId };
  };
  /** `rebuild`: the answer for a key whose change committed but whose answer was lost. */
  return (rebuild?: RebuildAnswer) => {
    const keyed = idempotencyHooks(idempotency, scopeOf, rebuild);
    return {
      preHandler: [keyed.preHandler],
      onSend: keyed.onSend,
      onResponse: keyed.onResponse,
      config: keyed.config,
    };
  };
}
