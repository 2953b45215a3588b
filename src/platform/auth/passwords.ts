import { hash, verify } from '@node-rs/argon2';
import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import * as zxcvbnCommon from '@zxcvbn-ts/language-common';
import * as zxcvbnEn from '@zxcvbn-ts/language-en';
import { AppError, ERROR_CODES } from '../errors.js';

export interface PasswordHasherOptions {
  /** Argon2 computations running at once (PASSWORD_HASH_CONCURRENCY, default 2). */
  concurrency: number;
  /** Computations waiting for a slot (PASSWORD_HASH_QUEUE, default 64); beyond: 429. */
  queue: number;
  /**
   * Of the `concurrency` slots, how many anonymous work outside sign-in (a password reset) may
   * hold at once (PASSWORD_HASH_ANONYMOUS, default 1; at most `concurrency`).
   */
  anonymous?: number;
}

/** Who asks for argon2 work: sign-in and signed-in users, or an anonymous caller (reset). */
export type HashShare = 'standard' | 'anonymous';

const tooMany = () =>
  new AppError(ERROR_CODES.RATE_LIMITED, 'too many password checks at once; retry shortly');

/** A counting semaphore with a bounded queue; a full queue refuses at once (429). */
class Slots {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    private readonly size: number,
    private readonly queue: number,
  ) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.size) {
      if (this.waiting.length >= this.queue) throw tooMany();
      // The slot is handed over by the finishing task, so `running` never drops in between.
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.running++;
    }
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}

/**
 * argon2id with the library's defaults (19 MiB, t=2, about 10 ms a hash on this machine kind),
 * behind a semaphore: argon2 runs on libuv's small thread pool, which file and DNS work share, so
 * a flood of sign-ins must queue here (bounded) instead of starving the whole process. Anonymous
 * work passes a smaller gate first, so a flood of it never holds every slot sign-in needs.
 */
export class PasswordHasher {
  private readonly all: Slots;
  private readonly anonymous: Slots;
  private dummyHash: Promise<string> | undefined;

  constructor(o: PasswordHasherOptions) {
    this.all = new Slots(o.concurrency, o.queue);
    this.anonymous = new Slots(Math.min(o.anonymous ?? 1, o.concurrency), o.queue);
  }

  hash(password: string, share: HashShare = 'standard'): Promise<string> {
    return this.limited(() => hash(password), share);
  }

  verify(passwordHash: string, password: string): Promise<boolean> {
    return this.limited(() => verify(passwordHash, password).catch(() => false));
  }

  /** Spends the time of one verification so an unknown user answers as slowly as a wrong password. */
  async burn(password: string): Promise<void> {
    this.dummyHash ??= hash('approva-timing-equaliser');
    await this.verify(await this.dummyHash, password);
  }

  private limited<T>(work: () => Promise<T>, share: HashShare = 'standard'): Promise<T> {
    if (share === 'standard') return this.all.run(work);
    return this.anonymous.run(() => this.all.run(work));
  }
}

/** Unthrottled hashing for start-up work (the seeded administrator), outside any request. */
export function hashPasswordOnce(password: string): Promise<string> {
  return hash(password);
}

export const MIN_PASSWORD_LENGTH = 10;
/** zxcvbn's 0..4 scale: 3 is "safely unguessable" (about 10^8 guesses or more). */
export const MIN_PASSWORD_SCORE = 3;
/**
 * zxcvbn's matching grows steeply with length (over half a second for some 128-character inputs
 * with the defaults): only the first 32 characters are scored, with fewer l33t substitutions
 * tried, so one check stays at tens of milliseconds. A longer password is judged by its start.
 */
const SCORED_LENGTH = 32;

let factory: ZxcvbnFactory | undefined;

/** Built on first use (about 0.1 to 0.4 s for the dictionaries), then shared: it holds no state. */
function strengthEstimator(): ZxcvbnFactory {
  factory ??= new ZxcvbnFactory({
    dictionary: { ...zxcvbnCommon.dictionary, ...zxcvbnEn.dictionary },
    graphs: zxcvbnCommon.adjacencyGraphs,
    translations: zxcvbnEn.translations,
    maxLength: SCORED_LENGTH,
    l33tMaxSubstitutions: 16,
  });
  return factory;
}

/**
 * Why a new password is refused, or undefined when it is acceptable: at least 10 characters and
 * a zxcvbn score of at least 3 against common passwords, English words, keyboard patterns and
 * the given user inputs (username, old password).
 */
export function passwordProblem(password: string, userInputs: string[] = []): string | undefined {
  if (password.length < MIN_PASSWORD_LENGTH) {
    return `must be at least ${MIN_PASSWORD_LENGTH} characters`;
  }
  const result = strengthEstimator().check(password, userInputs.filter(Boolean));
  if (result.score >= MIN_PASSWORD_SCORE) return undefined;
  const hint = result.feedback.warning ?? result.feedback.suggestions[0];
  return `too easy to guess${hint ? `: ${hint}` : ''}`;
}
