import { z } from 'zod';
import { passwordProblem } from '../../platform/auth/passwords.js';

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

/**
 * A password an administrator sets: 10..128 characters and strong enough for the policy
 * (`passwordProblem`), checked with the other fields at once. The message says why.
 */
export const password = z
  .string()
  .max(128)
  .describe('at least 10 characters, not easy to guess (zxcvbn score 3 or more)')
  .superRefine((value, ctx) => {
    const problem = value.length <= 128 ? passwordProblem(value) : undefined;
    if (problem) {
      ctx.addIssue({ code: 'custom', message: problem });
    }
  });
