import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { isPlaceholderSecret } from '../../../config/secrets.js';
import { AppError, ERROR_CODES } from '../../../platform/errors.js';

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * The internal entry fails closed: with SYSTEM_INTERNAL_TOKEN unset, empty or a placeholder it
 * answers 503 (production refuses such a value at start). A wrong token is 40104; the
 * comparison runs in constant time over digests, so a length difference neither throws nor
 * leaks.
 */
export function internalTokenGuard(configured: string | undefined) {
  const usable =
    configured !== undefined && configured.trim() !== '' && !isPlaceholderSecret(configured);
  const expected = usable ? digest(configured) : undefined;
  return async (request: FastifyRequest) => {
    if (!expected)
      throw new AppError(ERROR_CODES.UNAVAILABLE, 'the internal entry is not configured');
    const sent = request.headers['x-internal-token'];
    if (typeof sent !== 'string' || !timingSafeEqual(digest(sent), expected)) {
      throw new AppError(ERROR_CODES.INTERNAL_TOKEN_WRONG);
    }
  };
}
