import type { UserDirectory } from '../auth.ports.js';
import * as oidc from 'openid-client';
import type { Logger } from 'pino';
import type { Principal } from '../../../platform/auth/principal.js';
import type { BusinessAuditWriter } from '../../../platform/audit/business-audit.js';
import type { Cache } from '../../../platform/cache/cache.js';
import { AppError, ERROR_CODES } from '../../../platform/errors.js';
import type { LoginType } from '../login-events.js';
import type { Mailer } from '../../../platform/notify/mailer.js';
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
  /** Set once the provider vouched for a linked user who still owes the second factor. */
  vouched?: { userId: number; until: number };
}

/** The user an external sign-in is for. */
export interface ExternalSignIn {
  userId: number;
  loginType: LoginType;
  /** For a state held for the second factor: when the hold ends. */
  heldUntil?: number | undefined;
}

export interface ExternalLoginOptions {
  db: ExternalDb;
  /** Identity's accounts (a port): whom to mail about a link or an unlink. */
  accounts: Pick<UserDirectory, 'findUser'>;
  /** Links and unlinks are recorded here (the kernel's business-audit writer). */
  audit: BusinessAuditWriter;
  /** Tells the user about a link or an unlink; none when mail is not configured. */
  mailer: Mailer | undefined;
  cache: Cache;
  logger: Logger;
  /** Injected clock (default Date.now). */
  now?: () => number;
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

const notLinked = () =>
  new AppError(
    ERROR_CODES.EXTERNAL_NOT_LINKED,
    'no account is linked to this external sign-in; sign in with your password and link it from your profile',
  );

/**
 * Sign-in through external providers with openid-client (authorization code, PKCE, state;
 * nonce and ID token for OpenID Connect providers; GitHub is plain OAuth2, see ./github.ts).
 * An external account signs in only as the platform user who linked it from their profile while
 * signed in: never by an e-mail address, which the platform does not confirm. Links and unlinks
 * are audited and mailed to the user.
 */
export class ExternalLoginService {
  private readonly configs = new Map<string, Promise<oidc.Configuration>>();
  private readonly now: () => number;

  constructor(private readonly o: ExternalLoginOptions) {
    this.now = o.now ?? Date.now;
  }

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

  /** The attempt a state names, taken: a state works once. */
  private async takePending(name: string, purpose: 'login' | 'link', state: string) {
    const raw = await this.o.cache.take(`auth:external:${state}`);
    const pending = raw ? (JSON.parse(raw) as PendingLogin) : undefined;
    if (!pending || pending.provider !== name || pending.purpose !== purpose) throw stateProblem();
    return pending;
  }

  /** Redeems the code at the provider: who the external account is. */
  private async exchange(pending: PendingLogin, answer: CallbackAnswer): Promise<ExternalClaims> {
    const { code, state } = answer;
    const provider = this.provider(pending.provider);
    const config = await this.config(provider);
    const callback = new URL(this.redirectUri(provider.name));
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
        return await githubClaims(config, provider, tokens.access_token);
      }
      const tokens = await oidc.authorizationCodeGrant(config, callback, {
        pkceCodeVerifier: pending.verifier,
        expectedState: state,
        expectedNonce: pending.nonce,
        idTokenExpected: true,
      });
      return tokens.claims()!;
    } catch (err) {
      this.o.logger.warn(
        { provider: provider.name, err: (err as Error).message },
        'external sign-in refused',
      );
      throw new AppError(ERROR_CODES.BAD_CREDENTIALS, 'the sign-in provider refused the sign-in');
    }
  }

  /**
   * The platform user the code the provider returned signs in as: the one who linked this
   * external account; an unknown one is refused (40105). A state held for the second factor
   * (`holdForSecondFactor`) answers its user again without going back to the provider.
   */
  async finishLogin(name: string, answer: CallbackAnswer): Promise<ExternalSignIn> {
    const pending = await this.takePending(name, 'login', answer.state);
    const loginType = this.provider(name).name;
    if (pending.vouched) {
      return { userId: pending.vouched.userId, loginType, heldUntil: pending.vouched.until };
    }
    const claims = await this.exchange(pending, answer);
    const userId = await findLinkedUser(this.o.db, name, claims.sub);
    if (userId === undefined) throw notLinked();
    return { userId, loginType };
  }

  /**
   * Keeps a login's state for the user's TOTP step: the console posts the same code and state
   * again with `totp_code`, and the provider is not asked twice. Held at most ten minutes from
   * the provider's answer, retries included.
   */
  async holdForSecondFactor(state: string, who: ExternalSignIn): Promise<void> {
    const until = who.heldUntil ?? this.now() + STATE_TTL_MS;
    if (until <= this.now()) return;
    const held: PendingLogin = {
      provider: who.loginType,
      purpose: 'login',
      userId: who.userId,
      verifier: '',
      nonce: '',
      vouched: { userId: who.userId, until },
    };
    await this.o.cache.set(`auth:external:${state}`, JSON.stringify(held), until - this.now());
  }

  /** Links the external account to the signed-in caller; audited and mailed to them. */
  async finishLink(principal: Principal, name: string, answer: CallbackAnswer) {
    const pending = await this.takePending(name, 'link', answer.state);
    if (pending.userId !== principal.userId) throw stateProblem();
    const claims = await this.exchange(pending, answer);
    const email = typeof claims.email === 'string' ? claims.email : null;
    const linked = await this.o.db.transaction().execute(async (trx) => {
      const inserted = await linkIdentity(trx, {
        provider: name,
        subject: claims.sub,
        userId: principal.userId,
        tenantId: principal.tenantId,
        email,
      });
      if (inserted) {
        await this.audit(trx, principal, 'link', null, { provider: name, email });
      }
      return inserted;
    });
    if (!linked) {
      if ((await findLinkedUser(this.o.db, name, claims.sub)) !== principal.userId) {
        throw AppError.conflict('this external account is linked to another user');
      }
      return;
    }
    this.notify(principal.userId, 'linked to', name);
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

  /** Unlinks the caller's accounts at `name`; 404 when none is linked. Audited and mailed. */
  async unlink(principal: Principal, name: string): Promise<void> {
    const removed = await this.o.db.transaction().execute(async (trx) => {
      const count = await unlinkProvider(trx, principal.userId, name);
      if (count > 0) await this.audit(trx, principal, 'unlink', { provider: name }, null);
      return count;
    });
    if (removed === 0) throw AppError.notFound('linked account');
    this.notify(principal.userId, 'unlinked from', name);
  }

  private audit(
    trx: ExternalDb,
    principal: Principal,
    action: 'link' | 'unlink',
    before: unknown,
    after: unknown,
  ) {
    const provider = ((before ?? after) as { provider: string }).provider;
    return this.o.audit.write(trx as never, {
      tenantId: principal.tenantId,
      actorId: principal.userId,
      actorName: principal.username,
      action,
      targetType: 'external_login',
      targetIds: [principal.userId],
      before,
      after,
      summary: `${action === 'link' ? 'linked' : 'unlinked'} ${provider} sign-in for ${principal.username}`,
    });
  }

  /**
   * Mails the user that an external account was linked or unlinked, so a link they did not
   * make does not go unnoticed. After the answer; a failure is logged, never the caller's.
   */
  private notify(userId: number, change: 'linked to' | 'unlinked from', provider: string) {
    const mailer = this.o.mailer;
    if (!mailer) return;
    void (async () => {
      const user = await this.o.accounts.findUser(userId, { fresh: true });
      if (!user?.email) return;
      const label = provider === 'github' ? 'GitHub' : provider === 'google' ? 'Google' : 'SSO';
      await mailer.send({
        to: user.email,
        subject: `A ${label} account was ${change} your Approva account`,
        text: `Hello ${user.username},\n\na ${label} account was just ${change} your Approva account${change === 'linked to' ? ': it can now sign you in' : ''}.\nIf this was not you, sign in, change your password and review the linked accounts in your profile.\n`,
      });
    })().catch((err: unknown) =>
      this.o.logger.error(
        { err: (err as Error).message },
        'external sign-in mail could not be sent',
      ),
    );
  }
}
