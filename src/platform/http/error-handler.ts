import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError, ERROR_CODES, type FieldProblem } from './errors.js';

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
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError(ERROR_CODES.BODY_TOO_LARGE);
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new AppError(ERROR_CODES.BAD_REQUEST, 'request body is not valid JSON');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new AppError(ERROR_CODES.BAD_REQUEST, 'unsupported request body');
  }
  if (
    error instanceof SyntaxError ||
    (error.statusCode === 400 && !error.code?.startsWith('FST_ERR_RESPONSE'))
  ) {
    return new AppError(ERROR_CODES.BAD_REQUEST, 'malformed request');
  }
  if (error.statusCode === 413) return new AppError(ERROR_CODES.BODY_TOO_LARGE);
  // The gateway's proxy could not get an answer from a service (connection refused or reset,
  // timed out): a dependency is down, not an internal error of the gateway.
  if (error.code?.startsWith('FST_REPLY_FROM_')) {
    return new AppError(ERROR_CODES.UNAVAILABLE, 'upstream service unavailable');
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

export function handleError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const appError = toAppError(error);
  if (appError.httpStatus >= 500) {
    request.log.error({ err: error }, 'request failed');
  } else if (!(error instanceof AppError)) {
    request.log.info({ code: appError.code, reason: error.message }, 'request rejected');
  }
  if (appError.code === ERROR_CODES.RATE_LIMITED && !reply.hasHeader('retry-after')) {
    reply.header('retry-after', '1');
  }
  return reply
    .status(appError.httpStatus)
    .send({ code: appError.code, message: appError.message, data: appError.details ?? null });
}
