import { z } from 'zod';

// Request pieces every service shares.

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

/** Timestamps leave a service as ISO 8601 strings in UTC with milliseconds. */
export const timestamp = z.iso.datetime();
export const toIso = (value: Date) => value.toISOString();
export const toIsoOrNull = (value: Date | null) => (value ? value.toISOString() : null);
