import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { routeConsoleTo } from './console-bridge.js';
import { createLogger } from './logger.js';

function capture() {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { lines, logger: createLogger('debug', {}, stream) };
}

describe('console routed into the logger', () => {
  it('writes each console call as one JSON line at its level, colours removed', () => {
    const { lines, logger } = capture();
    const target = { ...console } as Console;
    routeConsoleTo(logger, target);
    target.warn('\u001b[31;1moidc-provider WARNING: %s\u001b[0m', 'Unsupported runtime');
    target.info('notice', { a: 1 });
    target.error('failed');
    target.log('plain');
    target.debug('details');
    expect(lines.map((l) => [l.level, l.msg, l.source])).toEqual([
      [40, 'oidc-provider WARNING: Unsupported runtime', 'console'],
      [30, 'notice { a: 1 }', 'console'],
      [50, 'failed', 'console'],
      [30, 'plain', 'console'],
      [20, 'details', 'console'],
    ]);
  });

  it('gives back the original methods', () => {
    const { logger } = capture();
    const warn = () => undefined;
    const target = { ...console, warn } as Console;
    const original = routeConsoleTo(logger, target);
    expect(target.warn).not.toBe(warn);
    expect(original.warn).toBe(warn);
  });
});
