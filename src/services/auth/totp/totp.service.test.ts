import { generate, generateSecret } from 'otplib';
import { describe, expect, it } from 'vitest';
import { acceptedTimeStep } from './totp.service.js';

const secret = generateSecret();
const NOW_MS = Date.UTC(2026, 10, 25, 12, 0, 10);
const stepOf = (ms: number) => Math.floor(ms / 1000 / 30);
const codeAt = (ms: number) => generate({ secret, epoch: Math.floor(ms / 1000) });

describe('acceptedTimeStep', () => {
  it('answers the time step of a current code, and of one period either side', async () => {
    for (const offset of [-30_000, 0, 30_000]) {
      const code = await codeAt(NOW_MS + offset);
      expect(await acceptedTimeStep({ secret, code, nowMs: NOW_MS, afterTimeStep: null })).toBe(
        stepOf(NOW_MS + offset),
      );
    }
  });

  it('refuses a code of the last used step or an earlier one', async () => {
    const code = await codeAt(NOW_MS);
    const step = stepOf(NOW_MS);
    for (const afterTimeStep of [step, step + 1]) {
      expect(
        await acceptedTimeStep({ secret, code, nowMs: NOW_MS, afterTimeStep }),
      ).toBeUndefined();
    }
    expect(await acceptedTimeStep({ secret, code, nowMs: NOW_MS, afterTimeStep: step - 1 })).toBe(
      step,
    );
  });

  it('refuses anything but six digits, and a code far from now', async () => {
    for (const code of ['', '12345', '1234567', 'abcdef']) {
      expect(
        await acceptedTimeStep({ secret, code, nowMs: NOW_MS, afterTimeStep: null }),
      ).toBeUndefined();
    }
    const old = await codeAt(NOW_MS - 5 * 60_000);
    expect(
      await acceptedTimeStep({ secret, code: old, nowMs: NOW_MS, afterTimeStep: null }),
    ).toBeUndefined();
  });
});
