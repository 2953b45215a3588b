import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, type JWK } from 'jose';
import { addKey, countKeys, listPublishedKeys } from './signing-keys.repo.js';
import type { OAuthDb } from './oauth2.tables.js';

const ALG = 'RS256';
const FORMAT = 'v1';

/** Raised when stored keys cannot be read: the server refuses to issue rather than make new ones. */
export class SigningKeyUnavailable extends Error {
  override name = 'SigningKeyUnavailable';
}

/** AES-256-GCM over the private JWK, keyed by the SHA-256 of the configured secret. */
export class KeyCipher {
  private readonly key: Buffer;

  constructor(secret: string) {
    this.key = createHash('sha256').update(secret).digest();
  }

  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return [FORMAT, iv, cipher.getAuthTag(), body]
      .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
      .join('.');
  }

  open(sealed: string): string {
    const [format, iv, tag, body] = sealed.split('.');
    if (format !== FORMAT || !iv || !tag || body === undefined) {
      throw new SigningKeyUnavailable('stored signing key has an unknown format');
    }
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([
        decipher.update(Buffer.from(body, 'base64url')),
        decipher.final(),
      ]).toString('utf8');
    } catch {
      throw new SigningKeyUnavailable(
        'stored signing key cannot be decrypted: OIDC_KEY_ENCRYPTION_KEY does not match the one it was stored with',
      );
    }
  }
}

async function newKey(cipher: KeyCipher) {
  const { privateKey } = await generateKeyPair(ALG, { modulusLength: 2048, extractable: true });
  const jwk = await exportJWK(privateKey);
  const kid = await calculateJwkThumbprint(jwk);
  const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, ...publicJwk } = jwk;
  return {
    kid,
    alg: ALG,
    publicJwk: { ...publicJwk, kid, alg: ALG, use: 'sig' },
    privateJwkEncrypted: cipher.seal(JSON.stringify({ ...jwk, kid, alg: ALG, use: 'sig' })),
  };
}

/** Creates the first key when the table is empty (first start). Never when keys exist. */
export async function ensureSigningKey(db: OAuthDb, cipher: KeyCipher): Promise<void> {
  if ((await countKeys(db)) > 0) return;
  await addKey(db, await newKey(cipher), 'first');
}

/** `keys rotate`: a new current key; the old ones stay published for `keepRetiredMs`. */
export async function rotateSigningKey(db: OAuthDb, cipher: KeyCipher): Promise<string> {
  const key = await newKey(cipher);
  await addKey(db, key, 'rotate');
  return key.kid;
}

/**
 * The private JWKs oidc-provider signs and publishes with, newest (the signing key) first.
 * Throws SigningKeyUnavailable when there is no current key or it cannot be decrypted; a
 * retired key that cannot be decrypted is left out (reported through `onSkipped`).
 */
export async function loadSigningKeys(
  db: OAuthDb,
  cipher: KeyCipher,
  keepRetiredMs: number,
  onSkipped: (kid: string, err: Error) => void = () => undefined,
): Promise<JWK[]> {
  const rows = await listPublishedKeys(db, keepRetiredMs);
  const current = rows.find((r) => r.retired_at === null);
  if (!current) throw new SigningKeyUnavailable('no current signing key');
  const keys = [JSON.parse(cipher.open(current.private_jwk_encrypted)) as JWK];
  for (const row of rows) {
    if (row === current) continue;
    try {
      keys.push(JSON.parse(cipher.open(row.private_jwk_encrypted)) as JWK);
    } catch (err) {
      onSkipped(row.kid, err as Error);
    }
  }
  return keys;
}
