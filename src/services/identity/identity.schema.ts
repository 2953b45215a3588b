import { z } from 'zod';
import { isWeakSecret } from '../../config/secrets.js';

// Schema pieces shared by the identity features (users, roles, departments, tenants).

export {
  id,
  idParams,
  idQuery,
  keywordQuery,
  timestamp,
  toIso,
} from '../../platform/http/params.js';

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
