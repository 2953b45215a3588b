import { isUniqueViolation } from './transaction.js';
import { AppError } from '../errors.js';

/**
 * Awaits a write and turns a unique violation of `constraint` into a 409. Duplicates are found by
 * the constraint, never by reading first: two concurrent creates cannot both pass a read.
 */
export async function conflictOnDuplicate<T>(
  write: Promise<T>,
  constraint: string,
  message: string,
): Promise<T> {
  try {
    return await write;
  } catch (err) {
    if (isUniqueViolation(err, constraint)) throw AppError.conflict(message);
    throw err;
  }
}

/**
 * Awaits a delete and turns a foreign-key violation (a row of another table still points at the
 * deleted one) into a 409 instead of a 500.
 */
export async function conflictOnReference<T>(remove: Promise<T>, message: string): Promise<T> {
  try {
    return await remove;
  } catch (err) {
    if ((err as { code?: string } | null)?.code === '23503') throw AppError.conflict(message);
    throw err;
  }
}
