import { describe, expect, it } from 'vitest';
import { AppError } from '../errors.js';
import { PasswordHasher, passwordProblem } from './passwords.js';

describe('password hasher', () => {
  it('verifies what it hashes and nothing else', async () => {
    const hasher = new PasswordHasher({ concurrency: 2, queue: 4 });
    const hashed = await hasher.hash('Corr3ct-Horse-Battery');
    expect(hashed).toMatch(/^\$argon2id\$/);
    expect(await hasher.verify(hashed, 'Corr3ct-Horse-Battery')).toBe(true);
    expect(await hasher.verify(hashed, 'corr3ct-horse-battery')).toBe(false);
    expect(await hasher.verify('not a hash', 'x')).toBe(false);
  });

  it('runs at most `concurrency` at once, queues `queue` more and refuses the rest with 429', async () => {
    const hasher = new PasswordHasher({ concurrency: 1, queue: 2 });
    const attempts = Array.from({ length: 5 }, (_, i) =>
      hasher.hash(`password-${i}-0123456789`).then(
        () => 'done',
        (err: unknown) => (err instanceof AppError ? err.code : 'other'),
      ),
    );
    expect(await Promise.all(attempts)).toEqual(['done', 'done', 'done', 42900, 42900]);
    // The slots are free again afterwards.
    expect(await hasher.verify(await hasher.hash('again-0123456789'), 'again-0123456789')).toBe(
      true,
    );
  });

  it('lets anonymous work hold only its share of the slots, leaving the rest to sign-in', async () => {
    const hasher = new PasswordHasher({ concurrency: 2, queue: 0, anonymous: 1 });
    const outcome = (p: Promise<unknown>) =>
      p.then(
        () => 'done',
        (err: unknown) => (err instanceof AppError ? err.code : 'other'),
      );
    const [firstAnonymous, secondAnonymous, signIn] = await Promise.all([
      outcome(hasher.hash('anonymous-0123456789', 'anonymous')),
      outcome(hasher.hash('anonymous-9876543210', 'anonymous')),
      outcome(hasher.hash('sign-in-0123456789')),
    ]);
    // The second anonymous hash finds the share taken (and no queue); sign-in's slot was free.
    expect([firstAnonymous, secondAnonymous, signIn]).toEqual(['done', 42900, 'done']);
  });
});

describe('password policy', () => {
  it('accepts a long, unusual password', () => {
    expect(passwordProblem('Corr3ct-Horse-Battery')).toBeUndefined();
  });

  it('refuses fewer than 10 characters, naming the rule', () => {
    expect(passwordProblem('Xk9#qLm2!')).toBe('must be at least 10 characters');
  });

  it('refuses common passwords and keyboard patterns however long', () => {
    for (const weak of [
      'password123',
      'Password123!',
      'qwertyuiop12',
      'aaaaaaaaaaaa',
      '1234567890',
    ]) {
      expect(passwordProblem(weak), weak).toMatch(/^too easy to guess/);
    }
  });

  it('refuses a password built on the given user inputs', () => {
    expect(passwordProblem('Zebulon-Quark', ['zebulon-quark'])).toMatch(/^too easy to guess/);
  });

  it('scores only the first 32 characters, which bounds the work per check', () => {
    // zxcvbn's matching grows steeply with length; past 32 characters nothing more is read.
    expect(passwordProblem('a'.repeat(32) + 'Corr3ct-Horse-Battery-Staple')).toMatch(
      /^too easy to guess/,
    );
    expect(passwordProblem('Corr3ct-Horse-Battery' + '1'.repeat(100))).toBeUndefined();
  });
});
