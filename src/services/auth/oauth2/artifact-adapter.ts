import { errors, type Adapter, type AdapterPayload } from 'oidc-provider';
import type { ClientStore } from './clients.repo.js';
import {
  consumeArtifact,
  deleteArtifact,
  deleteGrantArtifacts,
  findArtifact,
  findArtifactByUid,
  grantHasAccessToken,
  sha256,
  upsertArtifact,
} from './artifacts.repo.js';
import type { OAuthDb } from './oauth2.tables.js';

/** Single-use artefacts: a lost race to consume one is a replay, so the grant is revoked. */
const SINGLE_USE = new Set(['AuthorizationCode', 'RefreshToken']);
/**
 * Bound to the user's session version when first saved for an account: codes and tokens are
 * checked through their grant, a sign-in through its provider session (provider.ts).
 */
const BOUND_TO_USER_VERSION = new Set(['Grant', 'Session']);

/** The user's current session version (read past any cache). */
export type UserVersionOf = (userId: number) => Promise<number | undefined>;

/**
 * oidc-provider's storage on the platform database. The `jti` (the token itself for opaque
 * tokens) is never stored: rows are keyed by its SHA-256 and it is put back from the id the
 * provider looks up with.
 */
export function createArtifactAdapter(
  db: OAuthDb,
  clients: ClientStore,
  userVersionOf: UserVersionOf,
) {
  return class ArtifactAdapter implements Adapter {
    constructor(private readonly model: string) {}

    async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
      const { jti: _jti, ...rest } = payload;
      const accountId = Number(payload.accountId);
      const bind = BOUND_TO_USER_VERSION.has(this.model) && Number.isSafeInteger(accountId);
      await upsertArtifact(db, {
        userVersion: bind ? await userVersionOf(accountId) : undefined,
        model: this.model,
        id,
        payload: rest as Record<string, unknown>,
        grantId: payload.grantId,
        uid: payload.uid,
        clientId: payload.clientId,
        expiresAt: expiresIn ? new Date(Date.now() + expiresIn * 1000) : null,
      });
    }

    async find(id: string): Promise<AdapterPayload | undefined> {
      if (this.model === 'Client') return clients.metadataOf(id);
      const row = await findArtifact(db, this.model, id);
      return row && restore(row, id);
    }

    async findByUid(uid: string): Promise<AdapterPayload | undefined> {
      const row = await findArtifactByUid(db, this.model, uid);
      // The session's own id is only known hashed here; the provider needs the uid lookup
      // only for sessions, whose payload carries everything but the jti it re-derives.
      return row && restore(row, undefined);
    }

    async findByUserCode(): Promise<AdapterPayload | undefined> {
      return undefined; // the device flow is not enabled
    }

    async consume(id: string): Promise<void> {
      const result = await consumeArtifact(db, this.model, id);
      if (!result.won && SINGLE_USE.has(this.model)) {
        if (result.grantHash) {
          // Two exchanges of one code at once: the winner is still issuing. Revoking under it
          // would refuse both; waiting (bounded) for its tokens revokes exactly what it issued.
          if (this.model === 'AuthorizationCode') await issuedOrTimeout(db, result.grantHash);
          await deleteGrantArtifacts(db, result.grantHash);
        }
        throw new errors.InvalidGrant(
          `${this.model === 'RefreshToken' ? 'refresh token' : 'authorization code'} already used`,
        );
      }
    }

    async destroy(id: string): Promise<void> {
      await deleteArtifact(db, this.model, id);
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await deleteGrantArtifacts(db, sha256(grantId));
    }
  };
}

const ISSUE_WAIT_MS = 2000;
const ISSUE_POLL_MS = 20;

/** Until the grant has an access token, or ISSUE_WAIT_MS have passed (the winner failed). */
async function issuedOrTimeout(db: OAuthDb, grantHash: string): Promise<void> {
  const deadline = Date.now() + ISSUE_WAIT_MS;
  while (!(await grantHasAccessToken(db, grantHash)) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, ISSUE_POLL_MS));
  }
}

function restore(
  row: { payload: Record<string, unknown>; consumed_at: Date | null },
  id: string | undefined,
): AdapterPayload {
  const payload: AdapterPayload = { ...row.payload };
  if (id !== undefined) payload.jti = id;
  if (row.consumed_at) payload.consumed = Math.floor(row.consumed_at.getTime() / 1000);
  return payload;
}
