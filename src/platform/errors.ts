/** One entry of `data.fields` in a validation error. */
export interface FieldProblem {
  field: string;
  rule: 'required' | 'type' | 'option' | 'range' | 'max_length' | 'format';
  message: string;
}

/** The application codes of API.md; the first three digits are the HTTP status. */
export const ERROR_CODES = {
  BAD_REQUEST: 40000,
  VALIDATION: 40001,
  FORM_INVALID: 40002,
  COMMENT_REQUIRED: 40003,
  UNAUTHENTICATED: 40100,
  TOKEN_EXPIRED: 40101,
  REFRESH_REVOKED: 40102,
  BAD_CREDENTIALS: 40103,
  INTERNAL_TOKEN_WRONG: 40104,
  EXTERNAL_NOT_LINKED: 40105,
  FORBIDDEN: 40300,
  ACTION_NOT_ALLOWED: 40301,
  PASSWORD_CHANGE_REQUIRED: 40302,
  NOT_FOUND: 40400,
  CONFLICT: 40900,
  DUPLICATE_ANCHOR: 40901,
  REQUEST_TIMEOUT: 40800,
  BODY_TOO_LARGE: 41300,
  URI_TOO_LONG: 41400,
  UNSUPPORTED_MEDIA_TYPE: 41500,
  RATE_LIMITED: 42900,
  HEADERS_TOO_LARGE: 43100,
  INTERNAL: 50000,
  BAD_GATEWAY: 50200,
  UNAVAILABLE: 50300,
} as const;

export type ErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];

/** Default texts; the system service's editable error-text table overrides them. */
export const DEFAULT_MESSAGES: Record<ErrorCode, string> = {
  40000: 'malformed request',
  40001: 'validation failed',
  40002: 'form data does not match the form schema',
  40003: 'a comment is required',
  40100: 'not authenticated',
  40101: 'token expired',
  40102: 'refresh token revoked or already used',
  40103: 'wrong username or password',
  40104: 'internal token wrong',
  40105: 'no account is linked to this external sign-in; link it from your profile first',
  40300: 'permission denied',
  40301: 'action not allowed',
  40302: 'password change required',
  40400: 'not found',
  40900: 'conflict with the current state',
  40901: 'a running instance already exists for this business record',
  40800: 'request not received in time',
  41300: 'request body too large',
  41400: 'request URL or path parameter too long',
  41500: 'unsupported content type (send application/json)',
  42900: 'too many requests',
  43100: 'request line or headers too large',
  50000: 'internal error',
  50200: 'an upstream provider failed',
  50300: 'service unavailable',
};

/** The platform's one error type: domain code throws it, one handler renders the envelope. */
export class AppError extends Error {
  override name = 'AppError';
  readonly httpStatus: number;

  constructor(
    readonly code: ErrorCode,
    message?: string,
    readonly details: unknown = null,
  ) {
    // A client error is an answer, not a fault: capturing its stack cost a fifth of a 404's CPU.
    const stackLimit = Error.stackTraceLimit;
    if (code < 50000) Error.stackTraceLimit = 0;
    super(message ?? DEFAULT_MESSAGES[code]);
    Error.stackTraceLimit = stackLimit;
    this.httpStatus = Math.floor(code / 100);
  }

  /**
   * 503 50300 because something this request needs is down (`cause` says what, for the one
   * warning line the error handler writes instead of an error with a stack).
   */
  static unavailable(cause: Error, message?: string): AppError {
    const error = new AppError(ERROR_CODES.UNAVAILABLE, message);
    Object.defineProperty(error, 'cause', { value: cause, enumerable: false });
    return error;
  }

  static notFound(what = 'resource'): AppError {
    return new AppError(ERROR_CODES.NOT_FOUND, `${what} not found`);
  }

  static validation(fields: FieldProblem[], message?: string): AppError {
    return new AppError(ERROR_CODES.VALIDATION, message, { fields });
  }

  static conflict(message: string): AppError {
    return new AppError(ERROR_CODES.CONFLICT, message);
  }

  static forbidden(message?: string): AppError {
    return new AppError(ERROR_CODES.FORBIDDEN, message);
  }
}
