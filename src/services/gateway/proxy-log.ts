import type { FastifyBaseLogger, FastifyReply } from 'fastify';
import { causeText } from '../../platform/dependency-errors.js';

/** The line the proxy library logs, with the whole error and its stack, on every failure. */
const PROXY_FAILURE = 'response errored';

/**
 * The request's logger for a proxied request, with the proxy library's own failure line made
 * one warning naming the service and the cause. While nothing was sent yet the error handler
 * answers 503 and writes that line, so the library's is dropped; once the answer has started
 * (a service dying mid-body, the client's connection cut) this is the only line. A service down
 * under load would otherwise log each failure twice, at length, with a stack.
 */
export function proxyLogger(
  log: FastifyBaseLogger,
  reply: FastifyReply,
  service: string,
): FastifyBaseLogger {
  const quiet = Object.create(log) as FastifyBaseLogger;
  quiet.warn = ((first: unknown, ...rest: unknown[]) => {
    if (rest[0] !== PROXY_FAILURE || !(first instanceof Error)) {
      return (log.warn as (...args: unknown[]) => void)(first, ...rest);
    }
    if (!reply.sent) return;
    log.warn({ dependency: service, cause: causeText(first) }, 'dependency failed mid-answer');
  }) as FastifyBaseLogger['warn'];
  return quiet;
}
