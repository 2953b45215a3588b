import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Download links: `/uploads/<key>?expires=<unix seconds>&sig=<hex>`, the signature an
 * HMAC-SHA256 over the key and the expiry. The link is the credential (the route is public), so
 * anything wrong with it is the same "not found" as a key that does not exist.
 */
export interface SignedLink {
  url: string;
  expiresAt: Date;
}

const KEY = /^[0-9a-f]{32}$/;
const SIG = /^[0-9a-f]{64}$/;
const EXPIRES = /^[1-9]\d{0,11}$/;

export class UrlSigner {
  constructor(
    private readonly secret: string,
    private readonly ttlSeconds: number,
  ) {}

  private mac(key: string, expires: number): Buffer {
    // JSON keeps the two fields apart: no key/expiry split can collide with another.
    return createHmac('sha256', this.secret)
      .update(JSON.stringify(['approva/upload', key, expires]))
      .digest();
  }

  /** A link to `key` that expires `ttlSeconds` from `now`. */
  sign(key: string, now = Date.now()): SignedLink {
    const expires = Math.floor(now / 1000) + this.ttlSeconds;
    const sig = this.mac(key, expires).toString('hex');
    return {
      url: `/uploads/${key}?expires=${expires}&sig=${sig}`,
      expiresAt: new Date(expires * 1000),
    };
  }

  /** True only for a well-formed key, an unexpired expiry and the right signature. */
  verify(key: string, expires: unknown, sig: unknown, now = Date.now()): boolean {
    if (!KEY.test(key) || typeof expires !== 'string' || typeof sig !== 'string') return false;
    if (!EXPIRES.test(expires) || !SIG.test(sig)) return false;
    const at = Number(expires);
    if (at * 1000 <= now) return false;
    // Constant time: the comparison leaks nothing about how much of a guess was right.
    return timingSafeEqual(this.mac(key, at), Buffer.from(sig, 'hex'));
  }
}

/** Storage keys are random hex: nothing of the client's name, nothing a path could escape with. */
export const isStorageKey = (key: string): boolean => KEY.test(key);
