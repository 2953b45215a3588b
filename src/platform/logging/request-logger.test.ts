import { Writable } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import { createLogger } from './logger.js';
import { lazyChildLogger } from './request-logger.js';

function capture(level = 'info') {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { lines, logger: createLogger(level, {}, stream).child({ service: 'auth' }) };
}

describe('a lazily made request logger', () => {
  it('makes no pino child while nothing is logged, nor for a disabled level', () => {
    const { logger } = capture('info');
    const child = vi.spyOn(logger, 'child');
    const log = lazyChildLogger(logger, { request_id: 'r-1' });
    log.debug('not at this level');
    log.trace({ a: 1 }, 'nor this');
    expect(child).not.toHaveBeenCalled();
    expect(log.level).toBe('info');
  });

  it('writes what an eager child writes, with the request id, from the first line on', () => {
    const { lines, logger } = capture('info');
    const child = vi.spyOn(logger, 'child');
    const log = lazyChildLogger(logger, { request_id: 'r-2' });
    log.info('first');
    log.warn({ dependency: 'cache' }, 'second');
    expect(child).toHaveBeenCalledTimes(1);
    expect(lines.map((l) => [l.level, l.msg, l.request_id, l.service, l.dependency])).toEqual([
      [30, 'first', 'r-2', 'auth', undefined],
      [40, 'second', 'r-2', 'auth', 'cache'],
    ]);
  });

  it('keeps the request id in its own children and in loggers derived from it', () => {
    const { lines, logger } = capture('info');
    const log = lazyChildLogger(logger, { request_id: 'r-3' });
    log.child({ job: 'x' }).error('from a child');
    // The gateway's proxy logger is derived with Object.create and overrides one method.
    const derived = Object.create(log) as typeof log;
    derived.info('through a derived logger');
    expect(lines.map((l) => [l.msg, l.request_id, l.job])).toEqual([
      ['from a child', 'r-3', 'x'],
      ['through a derived logger', 'r-3', undefined],
    ]);
  });
});
