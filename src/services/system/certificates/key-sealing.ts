import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const VERSION = 'v1';
const SALT = 'approva/system';
const INFO = 'approva/system/certificate-private-keys';

/**
 * Seals private keys at rest: AES-256-GCM under a key derived with HKDF-SHA256 from the
 * service's secret (SYSTEM_ENCRYPTION_KEY, else JWT_SECRET), a random 96-bit IV per key, and the
 * certificate's fingerprint as associated data, so a sealed key moved to another row fails to
 * open.
 */
export class KeySealer {
  private readonly key: Buffer;

  constructor(secret: string) {
    this.key = Buffer.from(hkdfSync('sha256', secret, SALT, INFO, 32));
  }

  seal(plaintext: string, boundTo: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(boundTo));
    const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    const parts = [iv, cipher.getAuthTag(), data].map((b) => b.toString('base64'));
    return [VERSION, ...parts].join(':');
  }

  /** Throws when the text was not sealed by this key for `boundTo`. */
  open(sealed: string, boundTo: string): string {
    const [version, iv, tag, data] = sealed.split(':');
    if (version !== VERSION || !iv || !tag || data === undefined) {
      throw new Error('not a sealed key');
    }
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64'));
    decipher.setAAD(Buffer.from(boundTo));
    decipher.setAuthTag(Buffer.from(tag, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64')), decipher.final()]).toString(
      'utf8',
    );
  }
}
