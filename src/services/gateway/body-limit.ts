import { Transform } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import { DISCARD_LIMIT_BYTES } from '../../platform/http/body-limit.js';
import type { HttpApp } from '../../platform/http/server.js';
import { AppError, ERROR_CODES } from '../../platform/errors.js';

/**
 * The proxy streams bodies, so Fastify's body limit does not apply to them: count the bytes on
 * the way through and fail the stream with a 413 (the proxy reports it as the error's cause)
 * instead of letting the upstream cut the connection, which would surface as a 500. The error
 * handler then reads and drops the rest of the body (up to a bound) so the client can read the
 * 413 instead of seeing its upload reset.
 */
export function enforceBodyLimit(app: HttpApp, limitOf: (request: FastifyRequest) => number) {
  app.addHook('onRequest', async (request, reply) => {
    const length = Number(request.headers['content-length'] ?? 0);
    if (length > limitOf(request)) {
      // More than the handler would read and drop: the connection cannot be reused.
      if (length > DISCARD_LIMIT_BYTES) reply.header('connection', 'close');
      throw new AppError(ERROR_CODES.BODY_TOO_LARGE);
    }
  });
  app.addHook('preParsing', async (request, _reply, payload) => {
    const hasBody =
      request.headers['transfer-encoding'] !== undefined ||
      Number(request.headers['content-length'] ?? 0) > 0;
    if (!hasBody) return payload;
    const limit = limitOf(request);
    let seen = 0;
    return payload.pipe(
      new Transform({
        transform(chunk: Buffer, _encoding, callback) {
          seen += chunk.length;
          if (seen > limit) {
            callback(new AppError(ERROR_CODES.BODY_TOO_LARGE));
            return;
          }
          callback(null, chunk);
        },
      }),
    );
  });
}
