import { describe, expect, it } from 'vitest';
import { internalTokenGuard } from './internal-token.js';

async function verdict(configured: string | undefined, production: boolean, sent?: string) {
  const guard = internalTokenGuard(configured, production);
  const headers: Record<string, string> = sent === undefined ? {} : { 'x-internal-token': sent };
  try {
    await guard({ headers } as never);
    return 'ok';
  } catch (err) {
    return (err as { code: number }).code;
  }
}

describe('internal token guard', () => {
  const strong = 'Kq7-internal-9vX2-token-Lm4P';

  it.each([undefined, '', '   ', 'changeme', 'your-token-here', 'xxxxxxxxxxxx'])(
    'fails closed with 503 when the token is %j',
    async (configured) => {
      expect(await verdict(configured, false, configured ?? 'anything')).toBe(50300);
    },
  );

  it('fails closed in production for a dev- token, even when it is sent', async () => {
    expect(await verdict('dev-Kq7internal9vX2', true, 'dev-Kq7internal9vX2')).toBe(50300);
    expect(await verdict('dev-Kq7internal9vX2', false, 'dev-Kq7internal9vX2')).toBe('ok');
  });

  it('answers 40104 for a wrong, missing or differently sized token', async () => {
    expect(await verdict(strong, false, 'wrong')).toBe(40104);
    expect(await verdict(strong, false, `${strong}x`)).toBe(40104);
    expect(await verdict(strong, false)).toBe(40104);
  });

  it('accepts the configured token', async () => {
    expect(await verdict(strong, true, strong)).toBe('ok');
  });
});
