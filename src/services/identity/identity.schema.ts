import { z } from 'zod';
import { isWeakSecret } from '../../config/secrets.js';

// Schema pieces shared by the identity features (users, roles, departments, tenants).

/** Ids are positive integers below 10^15, well inside JSON's exact integer range. */
const ID_PATTERN = /^[1-9]\d{0,14}$/;

export const id = z.number().int().min(1).max(999_999_999_999_999);

/** Path parameter `:id`; anything but a positive integer is a 400 (40000). */
export const idParams = z.object({
  id: z.string().regex(ID_PATTERN, 'must be a positive integer').transform(Number),
});

/** An id in a query string filter; same rule as a path id. */
export const idQuery = z
  .string()
  .regex(ID_PATTERN, 'must be a positive integer')
  .transform(Number)
  .optional();

/** A free-text filter (`keyword`): matched as literal text, `%` and `_` included. */
export const keywordQuery = z.string().max(100).optional();

/** Timestamps leave the service as ISO 8601 strings in UTC with milliseconds. */
export const timestamp = z.iso.datetime();
export const toIso = (value: Date) => value.toISOString();

export const status = z.enum(['active', 'disabled']);

export const username = z
  .string()
  .regex(/^[A-Za-z0-9._@-]{2,64}$/, '2 to 64 letters, digits or . _ @ -');

/** 8..128 characters and not a well-known weak value; checked with the other fields at once. */
export const password = z
  .string()
  .min(8)
  .max(128)
  .refine((v) => v.length < 8 || !isWeakSecret(v), 'password is too weak');
