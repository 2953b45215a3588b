import { describe, expect, it } from 'vitest';
import { DependencyDownError, dependencyFailureOf, logSurvived } from './dependency-errors.js';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe('dependencyFailureOf', () => {
  it.each([
    ['a dropped PostgreSQL connection', new Error('Connection terminated unexpectedly')],
    ['an administrator shutdown', withCode('terminating connection', '57P01')],
    ['a database starting up', withCode('the database system is starting up', '57P03')],
    ['a connection exception', withCode('connection failure', '08006')],
    ['a refused connection', withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED')],
    ['a pool that cannot connect in time', new Error('timeout exceeded when trying to connect')],
  ])('names the database for %s', (_what, error) => {
    expect(dependencyFailureOf(error)).toMatchObject({ dependency: 'database' });
  });

  it('finds the failure in a cause and reports the innermost words', () => {
    const reset = withCode('read ECONNRESET', 'ECONNRESET');
    const wrapped = Object.assign(new Error('Connection Reset', { cause: reset }), {
      code: 'ECONNRESET',
    });
    expect(dependencyFailureOf(wrapped, 'identity')).toEqual({
      dependency: 'identity',
      cause: 'read ECONNRESET',
    });
  });

  it('takes the dependency from a DependencyDownError', () => {
    const error = new DependencyDownError('cache', new Error('Command timed out'));
    expect(dependencyFailureOf(new Error('outer', { cause: error }))).toEqual({
      dependency: 'cache',
      cause: 'Command timed out',
    });
  });

  it.each([
    ['a unique violation', withCode('duplicate key', '23505')],
    ['a data exception', withCode('invalid input syntax', '22P02')],
    ['a plain bug', new TypeError('x is undefined')],
  ])('leaves %s alone', (_what, error) => {
    expect(dependencyFailureOf(error)).toBeUndefined();
  });
});

describe('logSurvived', () => {
  const recorder = () => {
    const lines: Array<[string, Record<string, unknown>, string]> = [];
    return {
      lines,
      warn: (fields: object, msg: string) => lines.push(['warn', { ...fields }, msg]),
      error: (fields: object, msg: string) => lines.push(['error', { ...fields }, msg]),
    };
  };

  it('writes a database shutting down as one warning naming it and the cause, no stack', () => {
    const log = recorder();
    const err = withCode('the database system is shutting down', '57P03');
    logSurvived(log, err, { idempotency_key: 'k' }, 'idempotency key not stored');
    expect(log.lines).toEqual([
      [
        'warn',
        {
          idempotency_key: 'k',
          dependency: 'database',
          cause: '57P03 the database system is shutting down',
        },
        'idempotency key not stored: dependency down',
      ],
    ]);
  });

  it('writes any other failure as an error carrying the error itself', () => {
    const log = recorder();
    const err = new TypeError('x is undefined');
    logSurvived(log, err, { job: 'j' }, 'round failed');
    expect(log.lines).toEqual([['error', { job: 'j', err }, 'round failed']]);
  });
});
