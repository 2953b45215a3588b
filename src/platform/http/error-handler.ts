import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { discardRestOfBody } from './body-limit.js';
import type { ErrorTextLookup } from './error-texts.js';
import { AppError, ERROR_CODES, type ErrorCode, type FieldProblem } from '../errors.js';
import { dependencyFailureOf, type DependencyFailure } from '../dependency-errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * The upstream service this request is proxied to (the gateway sets it): names the
     * dependency when the proxy reports that service unreachable.
     */
    upstreamService?: string;
  }
}

interface ZodLikeIssue {
  keyword: string;
  instancePath: string;
  message: string;
  params: Record<string, unknown>;
}

function ruleOf(issue: ZodLikeIssue): FieldProblem['rule'] {
  switch (issue.keyword) {
    case 'invalid_type':
      return /received undefined/.test(issue.message) ? 'required' : 'type';
    case 'too_big':
      return issue.params.origin === 'number' || issue.params.origin === 'int'
        ? 'range'
        : 'max_length';
    case 'too_small':
      if (issue.params.origin === 'number' || issue.params.origin === 'int') return 'range';
      return issue.params.minimum === 1 ? 'required' : 'format';
    case 'invalid_value':
      return 'option';
    default:
      return 'format';
  }
}

/** Turns a Fastify schema-validation failure into `data.fields`, every problem at once. */
function fieldsOf(error: FastifyError): FieldProblem[] {
  if (!hasZodFastifySchemaValidationErrors(error)) {
    return [{ field: '', rule: 'format', message: error.message }];
  }
  return (error.validation as unknown as ZodLikeIssue[]).map((issue) => {
    const field = issue.instancePath.replace(/^\//, '').replaceAll('/', '.');
    if (issue.keyword === 'unrecognized_keys') {
      const keys = (issue.params.keys as string[] | undefined) ?? [];
      return { field: keys.join(','), rule: 'format', message: 'unknown field' };
    }
    return { field, rule: ruleOf(issue), message: issue.message };
  });
}

// Fastify's own client errors, by code: each answered with the contract's code, never its own
// `{"error", "statusCode"}` body.
const FASTIFY_CODES: Record<string, [ErrorCode, string?]> = {
  FST_ERR_CTP_BODY_TOO_LARGE: [ERROR_CODES.BODY_TOO_LARGE],
  FST_ERR_CTP_INVALID_JSON_BODY: [ERROR_CODES.BAD_REQUEST, 'request body is not valid JSON'],
  FST_ERR_CTP_EMPTY_JSON_BODY: [ERROR_CODES.BAD_REQUEST, 'request body is not valid JSON'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [ERROR_CODES.UNSUPPORTED_MEDIA_TYPE],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [ERROR_CODES.BAD_REQUEST, 'content length does not match'],
  FST_ERR_BAD_URL: [ERROR_CODES.BAD_REQUEST, 'malformed URL (invalid percent-encoding)'],
  FST_ERR_MAX_PARAM_LENGTH: [ERROR_CODES.URI_TOO_LONG],
};

// Other 4xx statuses a library reports, by status; any other 4xx is a plain 40000.
const CLIENT_STATUSES: Record<number, ErrorCode> = {
  404: ERROR_CODES.NOT_FOUND,
  408: ERROR_CODES.REQUEST_TIMEOUT,
  413: ERROR_CODES.BODY_TOO_LARGE,
  414: ERROR_CODES.URI_TOO_LONG,
  415: ERROR_CODES.UNSUPPORTED_MEDIA_TYPE,
  431: ERROR_CODES.HEADERS_TOO_LARGE,
};

/** Maps Fastify's own error codes onto the contract's; everything else is a 500 without internals. */
export function toAppError(error: FastifyError): AppError {
  if (error instanceof AppError) return error;
  // A proxied request fails with the stream's own error as the cause (the gateway's body limit).
  if (error.cause instanceof AppError) return error.cause;
  if (error.validation) {
    const context = (error as { validationContext?: string }).validationContext;
    const code = context === 'body' ? ERROR_CODES.VALIDATION : ERROR_CODES.BAD_REQUEST;
    return new AppError(code, undefined, { fields: fieldsOf(error) });
  }
  const known = typeof error.code === 'string' ? FASTIFY_CODES[error.code] : undefined;
  if (known) return new AppError(known[0], known[1]);
  // The gateway's proxy could not get an answer from a service (connection refused or reset,
  // timed out): a dependency is down, not an internal error of the gateway.
  if (typeof error.code === 'string' && error.code.startsWith('FST_REPLY_FROM_')) {
    return new AppError(ERROR_CODES.UNAVAILABLE, 'upstream service unavailable');
  }
  // A dependency down (the database, the cache, an upstream reset mid-request): 503, not 500.
  if (dependencyFailureOf(error)) return new AppError(ERROR_CODES.UNAVAILABLE);
  if (error instanceof SyntaxError)
    return new AppError(ERROR_CODES.BAD_REQUEST, 'malformed request');
  const status = error.statusCode;
  if (
    typeof status === 'number' &&
    status >= 400 &&
    status < 500 &&
    !error.code?.startsWith('FST_ERR_RESPONSE')
  ) {
    const code = CLIENT_STATUSES[status];
    return code ? new AppError(code) : new AppError(ERROR_CODES.BAD_REQUEST, 'malformed request');
  }
  // PostgreSQL class 22, "data exception": a value the client sent that the database cannot
  // hold (a NUL character in text, an id beyond bigint, a string past a column's length).
  if (typeof error.code === 'string' && /^22[0-9A-Z]{3}$/.test(error.code)) {
    return new AppError(
      ERROR_CODES.BAD_REQUEST,
      'a value cannot be stored (out of range or invalid characters)',
    );
  }
  return new AppError(ERROR_CODES.INTERNAL);
}

/**
 * The one error handler: every error a route, a hook, Fastify itself (bad URL, content type,
 * JSON, limits: also through `frameworkErrors`) or the proxy raises is answered in the envelope.
 * An administrator's text for the code (`texts`, held in memory) replaces the message.
 */
export function handleError(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
  texts?: ErrorTextLookup,
) {
  const appError = toAppError(error);
  const down = appError.code === ERROR_CODES.UNAVAILABLE ? unavailableCause(error, request) : null;
  if (down) {
    // Expected while a dependency is down: one line each, no stack (it says nothing new).
    request.log.warn(down, 'dependency unavailable');
  } else if (appError.httpStatus >= 500) {
    request.log.error({ err: error }, 'request failed');
  } else if (!(error instanceof AppError)) {
    request.log.info({ code: appError.code, reason: error.message }, 'request rejected');
  }
  if (appError.code === ERROR_CODES.RATE_LIMITED && !reply.hasHeader('retry-after')) {
    reply.header('retry-after', '1');
  }
  // Errors raised before routing (a bad URL) skip the onRequest hook that sets it.
  if (!reply.hasHeader('x-request-id')) reply.header('x-request-id', request.id);
  // The client may still be sending the refused body: read the rest so it can read the answer.
  if (appError.code === ERROR_CODES.BODY_TOO_LARGE) discardRestOfBody(request.raw);
  // An administrator's text is marked, so a client that shows its own text for each code (the
  // console, in the reader's language) knows to show this one instead.
  const custom = texts?.messageFor(appError.code);
  if (custom !== undefined) reply.header('x-error-text', 'custom');
  return reply.status(appError.httpStatus).send({
    code: appError.code,
    message: custom ?? appError.message,
    data: appError.details ?? null,
  });
}

/** What was down and why, for the warning; null for a 503 the code raised on purpose. */
function unavailableCause(error: Error, request: FastifyRequest): DependencyFailure | null {
  if (error instanceof AppError && !(error.cause instanceof Error)) return null;
  const fallback = request.upstreamService ?? 'database';
  return (
    dependencyFailureOf(error, fallback) ?? {
      dependency: fallback,
      cause: error.cause instanceof Error ? error.cause.message : error.message,
    }
  );
}

/**
 * Errors Node's HTTP parser raises before Fastify sees a request (a request line or headers over
 * the size limit, a malformed request, a timeout): answered in the envelope on the raw socket,
 * then the connection is closed (the parser cannot go on).
 */
export function handleClientError(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const appError =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? new AppError(ERROR_CODES.HEADERS_TOO_LARGE)
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? new AppError(ERROR_CODES.REQUEST_TIMEOUT)
        : new AppError(ERROR_CODES.BAD_REQUEST, 'malformed HTTP request');
  const body = JSON.stringify({ code: appError.code, message: appError.message, data: null });
  // As Node's own handler: never write into a response that has already started.
  const inFlight = (socket as { _httpMessage?: { headersSent?: boolean } | null })._httpMessage;
  if (socket.writable && !inFlight?.headersSent) {
    const status = appError.httpStatus;
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}
