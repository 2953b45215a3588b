type Document = Record<string, unknown>;

/**
 * The OAuth2 / OpenID Connect protocol endpoints the auth service serves through oidc-provider
 * (not Fastify routes, so not in any route schema): documented here for the OpenAPI document.
 * They answer bare JSON as their RFCs say, never the platform's envelope. Clients authenticate
 * with their own credentials (HTTP Basic or the body), never the platform's bearer token.
 */

const OAUTH_ERROR = {
  type: 'object',
  description: 'RFC 6749 §5.2 error',
  properties: {
    error: {
      type: 'string',
      examples: ['invalid_request', 'invalid_client', 'invalid_grant', 'unsupported_grant_type'],
    },
    error_description: { type: 'string' },
  },
  required: ['error'],
};

const json = (schema: Document, description: string) => ({
  description,
  content: { 'application/json': { schema } },
});
const form = (properties: Document, required: string[]) => ({
  required: true,
  content: {
    'application/x-www-form-urlencoded': { schema: { type: 'object', properties, required } },
  },
});
const text = { type: 'string' };
const errors = { 400: json(OAUTH_ERROR, 'the request is refused (bare OAuth2 error)') };
const op = (summary: string, extra: Document) => ({
  tags: ['oauth2'],
  summary,
  security: [],
  ...extra,
});

const TOKEN_RESPONSE = {
  type: 'object',
  properties: {
    access_token: text,
    token_type: { type: 'string', const: 'Bearer' },
    expires_in: { type: 'integer' },
    refresh_token: text,
    id_token: text,
    scope: text,
  },
  required: ['access_token', 'token_type', 'expires_in'],
};

const DISCOVERY = op(
  'OpenID Connect discovery document (issuer `<OIDC_ISSUER_URL>/api/v1/oauth2`)',
  {
    responses: {
      200: json(
        {
          type: 'object',
          properties: {
            issuer: text,
            authorization_endpoint: text,
            token_endpoint: text,
            jwks_uri: text,
          },
          additionalProperties: true,
        },
        'the discovery document',
      ),
    },
  },
);

export const OAUTH2_PATHS: Document = {
  '/api/v1/oauth2/authorize': {
    get: op('Authorization endpoint: authorization code with PKCE (RFC 6749 §4.1, RFC 7636)', {
      parameters: [
        ['response_type', true, 'code'],
        ['client_id', true],
        ['redirect_uri', true, 'registered exactly'],
        ['scope', false, 'openid, profile, email, offline_access'],
        ['state', false],
        ['nonce', false],
        ['code_challenge', false, 'required for public clients'],
        ['code_challenge_method', false, 'S256'],
      ].map(([name, required, description]) => ({
        name,
        in: 'query',
        required,
        schema: text,
        ...(description ? { description } : {}),
      })),
      responses: {
        303: {
          description:
            'to the sign-in and consent pages, or back to `redirect_uri` with `code` and `state` (or `error`)',
        },
        ...errors,
      },
    }),
  },
  '/api/v1/oauth2/token': {
    post: op('Token endpoint: authorization_code, refresh_token (rotated), client_credentials', {
      requestBody: form(
        {
          grant_type: {
            type: 'string',
            enum: ['authorization_code', 'refresh_token', 'client_credentials'],
          },
          code: text,
          redirect_uri: text,
          code_verifier: text,
          refresh_token: text,
          scope: text,
          client_id: text,
          client_secret: text,
        },
        ['grant_type'],
      ),
      responses: {
        200: json(TOKEN_RESPONSE, 'the tokens (bare JSON)'),
        ...errors,
        401: json(OAUTH_ERROR, 'invalid_client'),
      },
    }),
  },
  '/api/v1/oauth2/introspect': {
    post: op('Token introspection (RFC 7662), for confidential clients', {
      requestBody: form({ token: text, token_type_hint: text }, ['token']),
      responses: {
        200: json(
          {
            type: 'object',
            properties: { active: { type: 'boolean' } },
            required: ['active'],
            additionalProperties: true,
          },
          '`{active: false}` for any token that is not active, whoever issued it',
        ),
        ...errors,
      },
    }),
  },
  '/api/v1/oauth2/revoke': {
    post: op('Token revocation (RFC 7009)', {
      requestBody: form({ token: text, token_type_hint: text }, ['token']),
      responses: { 200: { description: 'revoked, or unknown (the same answer)' }, ...errors },
    }),
  },
  '/api/v1/oauth2/userinfo': {
    get: op('UserInfo (OpenID Connect Core §5.3), with an access token of this server', {
      security: [{ bearer: [] }],
      responses: {
        200: json(
          {
            type: 'object',
            properties: { sub: text },
            required: ['sub'],
            additionalProperties: true,
          },
          'the claims the token\u2019s scopes allow',
        ),
        401: json(OAUTH_ERROR, 'invalid_token'),
      },
    }),
  },
  '/api/v1/oauth2/jwks': {
    get: op('The public signing keys (JWK Set), retired ones for 61 minutes', {
      responses: {
        200: json(
          {
            type: 'object',
            properties: { keys: { type: 'array', items: { type: 'object' } } },
            required: ['keys'],
          },
          'the key set',
        ),
      },
    }),
  },
  '/api/v1/oauth2/.well-known/openid-configuration': { get: DISCOVERY },
  '/.well-known/openid-configuration': {
    get: { ...DISCOVERY, summary: 'The discovery document at the host root (the same document)' },
  },
};
