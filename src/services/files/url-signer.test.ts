import { describe, expect, it } from 'vitest';
import { isStorageKey, UrlSigner } from './url-signer.js';

const KEY = '0123456789abcdef0123456789abcdef';
const signer = new UrlSigner('secret-one', 300);
const NOW = 1_800_000_000_000;

function partsOf(url: string) {
  const [path, query] = url.split('?');
  const params = new URLSearchParams(query);
  return { key: path!.split('/').pop()!, expires: params.get('expires')!, sig: params.get('sig')! };
}

describe('UrlSigner', () => {
  it('signs a link that verifies until it expires, and not after', () => {
    const link = signer.sign(KEY, NOW);
    expect(link.url).toMatch(/^\/uploads\/[0-9a-f]{32}\?expires=\d+&sig=[0-9a-f]{64}$/);
    expect(link.expiresAt.getTime()).toBe(NOW + 300_000);
    const { key, expires, sig } = partsOf(link.url);
    expect(signer.verify(key, expires, sig, NOW)).toBe(true);
    expect(signer.verify(key, expires, sig, NOW + 299_000)).toBe(true);
    expect(signer.verify(key, expires, sig, NOW + 300_000)).toBe(false);
  });

  it('refuses a changed key, expiry or signature, another secret, and malformed parts', () => {
    const { key, expires, sig } = partsOf(signer.sign(KEY, NOW).url);
    const otherKey = `1${key.slice(1)}`;
    const flipped = `${sig[0] === 'a' ? 'b' : 'a'}${sig.slice(1)}`;
    expect(signer.verify(otherKey, expires, sig, NOW)).toBe(false);
    expect(signer.verify(key, String(Number(expires) + 1), sig, NOW)).toBe(false);
    expect(signer.verify(key, expires, flipped, NOW)).toBe(false);
    expect(new UrlSigner('secret-two', 300).verify(key, expires, sig, NOW)).toBe(false);
    for (const [k, e, s] of [
      [key, undefined, sig],
      [key, expires, undefined],
      [key, `0${expires}`, sig],
      [key, '1e12', sig],
      [key, expires, sig.toUpperCase()],
      [key, expires, sig.slice(0, 63)],
      [`../${key}`, expires, sig],
      [key.toUpperCase(), expires, sig],
    ] as const) {
      expect(signer.verify(k, e, s, NOW)).toBe(false);
    }
  });

  it('accepts only 32 lower-case hex digits as a storage key', () => {
    expect(isStorageKey(KEY)).toBe(true);
    for (const bad of ['', '../etc/passwd', `${KEY}0`, KEY.toUpperCase(), `${KEY.slice(1)}/`])
      expect(isStorageKey(bad)).toBe(false);
  });
});
