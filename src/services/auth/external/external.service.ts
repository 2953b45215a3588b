import type { UserDirectory } from '../auth.ports.js';
import * as oidc from 'openid-client';
import type { Logger } from 'pino';
import type { Principal } from '../../../platform/auth/principal.js';
import type { Cache } from '../../../platform/cache/cache.js';
import { AppError, ERROR_CODES } from '../../../platform/http/errors.js';
import {
  findLinkedUser,
  linkIdentity,
  linksOfUser,
  unlinkProvider,
  type ExternalDb,
} from './external.repo.js';
import {
  GITHUB_SCOPE,
  githubClaims,
  githubConfiguration,
  type ExternalClaims,
  type GithubProviderConfig,
} from './github.js';

const STATE_TTL_MS = 10 * 60_000;

/** A provider reached through OpenID Connect discovery (Google, or any OIDC provider). */
export interface OidcProviderConfig {
  name: 'google' | 'oidc';
  issuer: string;
  clientId: string;
  clientSecret: string;
}

export type ProviderConfig = OidcProviderConfig | GithubProviderConfig;

/** What the provider sent back to the redirect URI, as the console forwards it. */
export interface CallbackAnswer {
  code: string;
  state: string;
  iss?: string | undefined;
}

interface PendingLogin {
  provider: string;
  purpose: 'login' | 'link';
  userId: number | null;
  verifier: string;
  nonce: string;
}

export interface ExternalLoginOptions {
  db: ExternalDb;
  /** Identity's accounts (a port): linking a first sign-in by verified e-mail. */
  accounts: Pick<UserDirectory, 'findUniqueByEmail'>;
  cache: Cache;
  logger: Logger;
  providers: ProviderConfig[];
  production: boolean;
  /** The console page providers return to; `/<provider>` is appended. */
  redirectUrl: () => string;
}

const stateProblem = () =>
  AppError.validation(
    [{ field: 'state', rule: 'format', message: 'the sign-in attempt is unknown or expired' }],
    'the sign-in attempt is unknown or expired',
  );

/**
 * Sign-in through external providers with openid-client (authorization code, PKCE, state;
 * nonce and ID token for OpenID Connect providers; GitHub is plain OAuth2, see ./github.ts).
 * An external account signs in as the platform user it is linked to; a first sign-in links by
 * a verified e-mail that exactly one active user of the default tenant has, or the user links
 * it from their profile while signed in.
 */
export class ExternalLoginService {
  private readonly configs = new Map<string, Promise<oidc.Configuration>>();

  constructor(private readonly o: ExternalLoginOptions) {}

  providerNames(): string[] {
    return this.o.providers.map((p) => p.name);
  }

  private provider(name: string): ProviderConfig {
    const provider = this.o.providers.find((p) => p.name === name);
    if (!provider) throw AppError.notFound('sign-in provider');
    return provider;
  }

  private config(provider: ProviderConfig): Promise<oidc.Configuration> {
    let config = this.configs.get(provider.name);
    if (!config && provider.name === 'github') {
      const insecure = !this.o.production && provider.baseUrl.startsWith('http:');
      config = Promise.resolve(githubConfiguration(provider, insecure));
      this.configs.set(provider.name, config);
    }
    if (!config && provider.name !== 'github') {
      // Plain-http issuers only outside production (a local test provider).
      const insecure = !this.o.production && provider.issuer.startsWith('http:');
      config = oidc.discovery(
        new URL(provider.issuer),
        provider.clientId,
        undefined,
        oidc.ClientSecretBasic(provider.clientSecret),
        insecure ? { execute: [oidc.allowInsecureRequests] } : undefined,
      );
      config.catch(() => this.configs.delete(provider.name));
      this.configs.set(provider.name, config);
    }
    return config!;
  }

  private redirectUri(name: string) {
    return `${this.o.redirectUrl().replace(/\/+$/, '')}/${name}`;
  }

  /** Where to send the browser; the answer's state comes back with the code. */
  async start(name: string, purpose: 'login' | 'link', principal?: Principal) {
    const provider = this.provider(name);
    const config = await this.config(provider).catch((err: unknown) => {
      this.o.logger.warn(
        { provider: name, err: (err as Error).message },
        'provider discovery failed',
      );
      throw new AppError(ERROR_CODES.UNAVAILABLE, 'the sign-in provider is not reachable');
    });
    const state = oidc.randomState();
    const pending: PendingLogin = {
      provider: name,
      purpose,
      userId: principal?.userId ?? null,
      verifier: oidc.randomPKCECodeVerifier(),
      nonce: oidc.randomNonce(),
    };
    await this.o.cache.set(`auth:external:${state}`, JSON.stringify(pending), STATE_TTL_MS);
    const supported = config.serverMetadata().scopes_supported;
    const scope =
      provider.name === 'github'
        ? GITHUB_SCOPE
        : ['openid', 'email', 'profile']
            .filter((s) => s === 'openid' || !supported || supported.includes(s))
            .join(' ');
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: this.redirectUri(name),
      scope,
      state,
      // Plain OAuth2 (GitHub) has no ID token to carry a nonce; state and PKCE guard it.
      ...(provider.name === 'github' ? {} : { nonce: pending.nonce }),
      code_challenge: await oidc.calculatePKCECodeChallenge(pending.verifier),
      code_challenge_method: 'S256',
    });
    return { authorization_url: url.toString(), state };
  }

  private async exchange(name: string, purpose: 'login' | 'link', answer: CallbackAnswer) {
    const { code, state } = answer;
    const provider = this.provider(name);
    const raw = await this.o.cache.take(`auth:external:${state}`);
    const pending = raw ? (JSON.parse(raw) as PendingLogin) : undefined;
    if (!pending || pending.provider !== name || pending.purpose !== purpose) throw stateProblem();
    const config = await this.config(provider);
    const callback = new URL(this.redirectUri(name));
    callback.searchParams.set('code', code);
    callback.searchParams.set('state', state);
    // RFC 9207: a provider that names itself in the redirect must be checked against it.
    if (answer.iss !== undefined) callback.searchParams.set('iss', answer.iss);
    try {
      if (provider.name === 'github') {
        const tokens = await oidc.authorizationCodeGrant(config, callback, {
          pkceCodeVerifier: pending.verifier,
          expectedState: state,
        });
        const claims: ExternalClaims = await githubClaims(config, provider, tokens.access_token);
        return { pending, provider, claims };
      }
      const tokens = await oidc.authorizationCodeGrant(config, callback, {
        pkceCodeVerifier: pending.verifier,
        expectedState: state,
        expectedNonce: pending.nonce,
        idTokenExpected: true,
      });
      const claims: ExternalClaims = tokens.claims()!;
      return { pending, provider, claims };
    } catch (err) {
      this.o.logger.warn(
        { provider: name, err: (err as Error).message },
        'external sign-in refused',
      );
      throw new AppError(ERROR_CODES.BAD_CREDENTIALS, 'the sign-in provider refused the sign-in');
    }
  }

  /** The platform user the code the provider returned signs in as. */
  async finishLogin(name: string, answer: CallbackAnswer) {
    const { provider, claims } = await this.exchange(name, 'login', answer);
    let userId = await findLinkedUser(this.o.db, name, claims.sub);
    if (
      userId === undefined &&
      claims.email_verified === true &&
      typeof claims.email === 'string'
    ) {
      const match = await this.o.accounts.findUniqueByEmail('default', claims.email);
      if (match) {
        await linkIdentity(this.o.db, {
          provider: name,
          subject: claims.sub,
          userId: match.id,
          tenantId: match.tenant_id,
          email: claims.email,
        });
        userId = match.id;
      }
    }
    if (userId === undefined) {
      throw new AppError(
        ERROR_CODES.BAD_CREDENTIALS,
        'no account is linked to this sign-in; link it from your profile first',
      );
    }
    return { userId, loginType: provider.name };
  }

  /** Links the external account to the signed-in caller. */
  async finishLink(principal: Principal, name: string, answer: CallbackAnswer) {
    const { pending, claims } = await this.exchange(name, 'link', answer);
    if (pending.userId !== principal.userId) throw stateProblem();
    const linked = await linkIdentity(this.o.db, {
      provider: name,
      subject: claims.sub,
      userId: principal.userId,
      tenantId: principal.tenantId,
      email: typeof claims.email === 'string' ? claims.email : null,
    });
    if (!linked && (await findLinkedUser(this.o.db, name, claims.sub)) !== principal.userId) {
      throw AppError.conflict('this external account is linked to another user');
    }
  }

  /** The caller's linked external accounts. */
  async links(principal: Principal) {
    const rows = await linksOfUser(this.o.db, principal.userId);
    return rows.map((r) => ({
      provider: r.provider,
      email: r.email,
      created_at: r.created_at ? r.created_at.toISOString() : null,
    }));
  }

  /** Unlinks the caller's accounts at `name`; 404 when none is linked. */
  async unlink(principal: Principal, name: string): Promise<void> {
    if ((await unlinkProvider(this.o.db, principal.userId, name)) === 0) {
      throw AppError.notFound('linked account');
    }
  }
}
