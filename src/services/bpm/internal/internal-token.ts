import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { isPlaceholderSecret } from '../../../config/secrets.js';
import { AppError, ERROR_CODES } from '../../../platform/errors.js';

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * The internal endpoints fail closed: with BPM_INTERNAL_TOKEN unset, empty, a placeholder, or
 * (in production) a `dev-` value, every one answers 503. A wrong token is 40104; the comparison
 * runs in constant time over digests, so a length difference neither throws nor leaks.
 */
export function internalTokenGuard(configured: string | undefined, production: boolean) {
  const usable =
    configured !== undefined &&
    configured.trim() !== '' &&
    !isPlaceholderSecret(configured.replace(/^dev-/, '')) &&
    !(production && configured.startsWith('dev-'));
  const expected = usable ? digest(configured) : undefined;
  return async (request: FastifyRequest) => {
    if (!expected)
      throw new AppError(ERROR_CODES.UNAVAILABLE, 'internal endpoints are not configured');
    const sent = request.headers['x-internal-token'];
    if (typeof sent !== 'string' || !timingSafeEqual(digest(sent), expected)) {
      throw new AppError(ERROR_CODES.INTERNAL_TOKEN_WRONG);
    }
  };
}
