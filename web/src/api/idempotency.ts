import { useRef } from 'react';
import { ApiError } from './errors';

/**
 * One `Idempotency-Key` per intended action (docs/api.md): a retry after a lost answer sends the
 * same key, so the server replays instead of acting twice; once the server has answered, the
 * next attempt (the person changed the comment, say) gets a new key, since the server refuses a
 * known key with another body.
 */
export function useIdempotencyKey() {
  const key = useRef<string | null>(null);
  return {
    headers(): { 'idempotency-key': string } {
      key.current ??= crypto.randomUUID();
      return { 'idempotency-key': key.current };
    },
    /** After a settled attempt: the server answered (success or an error in the envelope). */
    settled(error?: unknown) {
      if (error === undefined || error instanceof ApiError) key.current = null;
    },
  };
}
