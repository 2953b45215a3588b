import { z } from 'zod';

export const GRANT_TYPES = ['authorization_code', 'refresh_token', 'client_credentials'] as const;

// Custom schemes of native apps must be reverse-domain names (RFC 8252 §7.1), which also keeps
// out javascript:, data:, vbscript: and file:.
const CUSTOM_SCHEME = /^[a-z][a-z0-9+-]*(\.[a-z0-9+-]+)+:$/;

export function redirectUriProblem(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an absolute URI';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:' && !CUSTOM_SCHEME.test(url.protocol)) {
    return `scheme ${url.protocol} is not allowed (https, http or a reverse-domain app scheme)`;
  }
  if (value.includes('#')) return 'must not contain a fragment';
  if (
    (url.protocol === 'https:' || url.protocol === 'http:') &&
    url.username + url.password !== ''
  ) {
    return 'must not contain user information';
  }
  return undefined;
}

const redirectUri = z
  .string()
  .max(2000)
  .superRefine((value, ctx) => {
    const problem = redirectUriProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

const fields = {
  name: z.string().trim().min(1).max(128),
  redirect_uris: z.array(redirectUri).max(20),
  grant_types: z.array(z.enum(GRANT_TYPES)).min(1).max(3),
  access_token_format: z.enum(['opaque', 'jwt']),
  token_rate_per_minute: z.number().int().min(0).max(100_000),
};

export const createClientBody = z.object({
  ...fields,
  redirect_uris: fields.redirect_uris.default([]),
  public: z.boolean().default(false),
  access_token_format: fields.access_token_format.default('opaque'),
  token_rate_per_minute: fields.token_rate_per_minute.default(0),
});
export type CreateClientInput = z.infer<typeof createClientBody>;

export const updateClientBody = z.object({
  name: fields.name.optional(),
  redirect_uris: fields.redirect_uris.optional(),
  grant_types: fields.grant_types.optional(),
  access_token_format: fields.access_token_format.optional(),
  token_rate_per_minute: fields.token_rate_per_minute.optional(),
});
export type UpdateClientInput = z.infer<typeof updateClientBody>;

export const clientIdParams = z.object({ id: z.string().min(1).max(128) });

export const clientView = z.object({
  id: z.number().int(),
  client_id: z.string(),
  name: z.string(),
  redirect_uris: z.array(z.string()),
  grant_types: z.array(z.string()),
  public: z.boolean(),
  access_token_format: z.enum(['opaque', 'jwt']),
  token_rate_per_minute: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type ClientView = z.infer<typeof clientView>;

/** The one response that shows the secret: creation and rotation. */
export const clientWithSecret = clientView.extend({ client_secret: z.string().nullable() });
