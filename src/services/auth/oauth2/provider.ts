import { timingSafeEqual } from 'node:crypto';
import type { JWK } from 'jose';
import Provider, {
  errors,
  interactionPolicy,
  type Configuration,
  type KoaContextWithOIDC,
} from 'oidc-provider';
import { createArtifactAdapter } from './artifact-adapter.js';
import { boundUserVersion, findArtifact, sha256 } from './artifacts.repo.js';
import type { ClientStore } from './clients.repo.js';
import type { OAuthDb } from './oauth2.tables.js';

/** Where the server is mounted; the issuer is the public base URL plus this. */
export const OAUTH_PREFIX = '/api/v1/oauth2';
/** The audience of JWT access tokens: the platform's API. */
export const API_RESOURCE = 'urn:approva:api';

export const TTL = {
  AccessToken: 3600,
  AuthorizationCode: 60,
  ClientCredentials: 600,
  IdToken: 3600,
  Interaction: 3600,
  RefreshToken: 14 * 24 * 3600,
  Session: 14 * 24 * 3600,
  Grant: 14 * 24 * 3600,
} as const;

/** A retired key stays in /jwks while anything it signed can still be valid (plus clock skew). */
export const KEY_PUBLISH_WINDOW_MS =
  (Math.max(TTL.AccessToken, TTL.IdToken, TTL.ClientCredentials) + 60) * 1000;

/** The account port: the platform's own users, by id. */
export interface OAuthAccounts {
  /** `fresh` reads past the cache: a session version moved on another replica counts at once. */
  findUser(
    userId: number,
    options: { fresh: true },
  ): Promise<
    | {
        id: number;
        tenant_id: number;
        username: string;
        nickname: string;
        email: string | null;
        status: 'active' | 'disabled';
        /** Moves when the user's sessions end (password set, user or tenant disabled). */
        session_version: number;
      }
    | undefined
  >;
}

export interface ProviderOptions {
  issuer: string;
  db: OAuthDb;
  clients: ClientStore;
  accounts: OAuthAccounts;
  signingKeys: JWK[];
  cookieSecret: string;
}

type WithFormat = { access_token_format?: string };
/** What oidc-provider's session carries that the check of a sign-in reads. */
type StoredSession = { jti: string; oldId?: string; loginTs?: number };

export function createProvider(o: ProviderOptions): Provider {
  /** The active user `sub`, if `bound` holds for their current session version. */
  const currentUser = async (sub: string, bound: (userVersion: number) => Promise<boolean>) => {
    const user = /^[1-9]\d{0,15}$/.test(sub)
      ? await o.accounts.findUser(Number(sub), { fresh: true })
      : undefined;
    if (!user || user.status !== 'active') return undefined;
    return (await bound(user.session_version)) ? user : undefined;
  };
  /** A code or token: its grant is bound to the version. */
  const grantBound = (grantId: string | undefined) => async (version: number) =>
    grantId !== undefined && (await boundUserVersion(o.db, 'Grant', grantId)) === version;
  /**
   * A sign-in: the provider session, as stored, is bound to the version, unless the user signed
   * in within this very request (the password was just checked): then nothing is stored yet
   * for this account and login time (a resumed session is saved under a new id, `oldId` being
   * the stored one).
   */
  const sessionBound =
    (sub: string, session: StoredSession | undefined) => async (version: number) => {
      if (!session) return false;
      const stored = (await findArtifact(o.db, 'Session', session.oldId ?? session.jti))?.payload;
      if (!stored || stored.accountId !== sub || stored.loginTs !== session.loginTs) return true;
      return stored.sv === version;
    };
  const configuration: Configuration = {
    adapter: createArtifactAdapter(
      o.db,
      o.clients,
      async (userId) => (await o.accounts.findUser(userId, { fresh: true }))?.session_version,
    ),
    jwks: { keys: o.signingKeys as Configuration['jwks'] extends { keys: infer K } ? K : never },
    cookies: { keys: [o.cookieSecret] },
    // The paths of API.md under the issuer.
    routes: {
      authorization: '/authorize',
      token: '/token',
      introspection: '/introspect',
      revocation: '/revoke',
      userinfo: '/userinfo',
      jwks: '/jwks',
    },
    clientAuthMethods: ['client_secret_basic', 'none'],
    extraClientMetadata: { properties: ['access_token_format'] },
    enabledJWA: {
      idTokenSigningAlgValues: ['RS256'],
      userinfoSigningAlgValues: ['RS256'],
      introspectionSigningAlgValues: ['RS256'],
      authorizationSigningAlgValues: ['RS256'],
    },
    scopes: ['openid', 'offline_access', 'profile', 'email', 'api'],
    claims: {
      // `amr`: how the user signed in (`pwd`, and `otp` after a TOTP code), from the sign-in page.
      openid: ['sub', 'amr'],
      profile: ['name', 'preferred_username', 'tenant_id'],
      email: ['email', 'email_verified'],
    },
    // Every use of a code or token (exchange, refresh, userinfo) and every authorization on an
    // existing sign-in asks for the account: it is refused once the user's session version has
    // moved past the one the grant (or the provider session) was bound to, so whatever ends the
    // user's platform sessions ends their OAuth grants too.
    async findAccount(ctx, sub, token) {
      const user = await currentUser(
        sub,
        token
          ? grantBound('grantId' in token ? token.grantId : undefined)
          : sessionBound(sub, ctx.oidc.session as StoredSession | undefined),
      );
      if (!user) return undefined;
      return {
        accountId: sub,
        claims: async () => ({
          sub,
          name: user.nickname || user.username,
          preferred_username: user.username,
          tenant_id: user.tenant_id,
          // Administrators set addresses and nobody confirms them by mail: never "verified",
          // so a relying party does not link accounts on an address a tenant admin typed.
          ...(user.email ? { email: user.email, email_verified: false } : {}),
        }),
      };
    },
    interactions: {
      policy: signInPolicy(),
      url: (_ctx, interaction) => `${OAUTH_PREFIX}/interaction/${interaction.uid}`,
    },
    pkce: {
      // S256 only (oidc-provider 9 knows no other method); mandatory for public clients.
      required: (_ctx, client) => client.clientAuthMethod === 'none',
    },
    // Refresh tokens go to clients registered for the refresh_token grant, and rotate on every
    // use; presenting a consumed one revokes the whole grant (oidc-provider's rule).
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    rotateRefreshToken: true,
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      introspection: {
        enabled: true,
        // Only the client a token was issued to may learn anything about it; a token of a grant
        // whose user's sessions ended since is no longer active.
        allowedPolicy: async (_ctx, client, token) => {
          if (token.clientId !== client.clientId) return false;
          if (!('accountId' in token) || !token.accountId) return true; // client credentials
          return (await currentUser(token.accountId, grantBound(token.grantId))) !== undefined;
        },
      },
      revocation: {
        enabled: true,
        // Another client's token: 200 with no effect (RFC 7009 §2.2).
        allowedPolicy: async (_ctx, client, token) => token.clientId === client.clientId,
      },
      userinfo: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: async (_ctx, client, oneOf) =>
          oneOf ??
          ((client as unknown as WithFormat).access_token_format === 'jwt'
            ? API_RESOURCE
            : undefined),
        useGrantedResource: async () => true,
        getResourceServerInfo: async (_ctx, resource, client) => {
          if (resource !== API_RESOURCE) throw new errors.InvalidTarget();
          const jwt = (client as unknown as WithFormat).access_token_format === 'jwt';
          return {
            scope: 'api',
            audience: API_RESOURCE,
            accessTokenTTL: TTL.AccessToken,
            accessTokenFormat: jwt ? 'jwt' : 'opaque',
            ...(jwt ? { jwt: { sign: { alg: 'RS256' } } } : {}),
          };
        },
      },
    },
    ttl: { ...TTL },
    renderError: async (ctx, out) => {
      ctx.type = 'html';
      ctx.body = `<!doctype html><html><head><meta charset="utf-8"><title>Error</title></head><body><h1>${escape(String(out.error))}</h1><p>${escape(String(out.error_description ?? ''))}</p></body></html>`;
    },
  };
  const provider = new Provider(o.issuer, configuration);
  // Behind the gateway: X-Forwarded-Proto decides whether cookies are Secure.
  provider.proxy = true;
  // A path under the issuer that is no endpoint gets the platform's 404 envelope, not Koa's
  // plain-text "Not Found" (the endpoints answer their own OAuth2 errors as before).
  provider.use(async (ctx, next) => {
    await next();
    if (ctx.status === 404 && ctx.body == null) {
      ctx.status = 404;
      ctx.body = { code: 40400, message: 'not found', data: null };
    }
  });
  // Secrets are stored as their SHA-256; compare the hash of what the client presents.
  const ClientClass = (provider as unknown as { Client: { prototype: { clientSecret?: string } } })
    .Client;
  Object.defineProperty(ClientClass.prototype, 'compareClientSecret', {
    configurable: true,
    value(this: { clientSecret?: string }, actual: string) {
      const stored = Buffer.from(this.clientSecret ?? '', 'utf8');
      const presented = Buffer.from(sha256(actual), 'utf8');
      return stored.length === presented.length && timingSafeEqual(stored, presented);
    },
  });
  return provider;
}

/**
 * oidc-provider's prompts, with one more reason to sign in again: the session names an account
 * findAccount refused (the user's sessions ended since, or the user is no longer active).
 */
function signInPolicy() {
  const policy = interactionPolicy.base();
  policy
    .get('login')!
    .checks.push(
      new interactionPolicy.Check(
        'sessions_ended',
        'End-User authentication is required',
        (ctx) => Boolean(ctx.oidc.session?.accountId) && !ctx.oidc.account,
      ),
    );
  return policy;
}

function escape(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export type { KoaContextWithOIDC };
