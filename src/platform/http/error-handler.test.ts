import { describe, expect, it } from 'vitest';
import type { FastifyError } from 'fastify';
import { toAppError } from './error-handler.js';

const fastifyError = (code: string, statusCode?: number, message = 'x') =>
  Object.assign(new Error(message), { code, statusCode }) as FastifyError;

describe('toAppError', () => {
  it.each([
    ['FST_ERR_CTP_INVALID_MEDIA_TYPE', 415, 41500],
    ['FST_ERR_CTP_BODY_TOO_LARGE', 413, 41300],
    ['FST_ERR_CTP_INVALID_JSON_BODY', 400, 40000],
    ['FST_ERR_CTP_EMPTY_JSON_BODY', 400, 40000],
    ['FST_ERR_CTP_INVALID_CONTENT_LENGTH', 400, 40000],
    ['FST_ERR_BAD_URL', 400, 40000],
    ['FST_ERR_MAX_PARAM_LENGTH', 414, 41400],
    ['FST_REPLY_FROM_GATEWAY_TIMEOUT', 504, 50300],
    ['SOME_LIBRARY_ERROR', 408, 40800],
    ['SOME_LIBRARY_ERROR', 431, 43100],
    ['SOME_LIBRARY_ERROR', 405, 40000],
    ['22P02', undefined, 40000],
    ['FST_ERR_RESPONSE_SERIALIZATION', 500, 50000],
    // A dependency down (the database, an upstream reset mid-request) is the contract's 50300.
    ['ECONNREFUSED', undefined, 50300],
    ['ECONNRESET', 500, 50300],
    ['UND_ERR_SOCKET', 500, 50300],
    ['57P01', undefined, 50300],
    ['SOME_LIBRARY_ERROR', 500, 50000],
  ])('maps %s (status %s) to %i', (code, status, expected) => {
    const appError = toAppError(fastifyError(code, status));
    expect(appError.code).toBe(expected);
    expect(appError.httpStatus).toBe(Math.floor(expected / 100));
  });

  it('never passes a library message or stack into a 500', () => {
    const appError = toAppError(fastifyError('EWHATEVER', undefined, 'secret internals'));
    expect(appError.message).toBe('internal error');
  });
});
