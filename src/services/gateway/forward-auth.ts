import type { FastifyRequest } from 'fastify';
import { Pool } from 'undici';
import type { Principal } from '../../platform/auth/principal.js';
import { DependencyDownError } from '../../platform/dependency-errors.js';
import { AppError, ERROR_CODES, type ErrorCode } from '../../platform/errors.js';

const UNAVAILABLE_TEXT = 'authentication service unavailable';

/** Forward-auth: asks the auth service who the bearer of a request is. */
export interface ForwardAuth {
  /** The verified principal; the auth service's 401/403 verdict passes through unchanged. */
  verify(request: FastifyRequest): Promise<Principal>;
  /**
   * True when `verify` is a call into the auth service in this process (no request to it): the
   * gateway then starts it beside the rate limiter, so their cache reads share one round trip.
   * A request to a remote auth service waits for the rate limiter's verdict. Default false.
   */
  readonly local?: boolean;
  close(): Promise<void>;
}

/** The auth service's verify function, for a gateway in the same process (all-in-one mode). */
export type VerifyFunction = (
  authorization: string | undefined,
  method: string,
  path: string,
) => Promise<Principal>;

/** All-in-one mode: the auth service runs in this process, so ask it without an HTTP round trip. */
export class LocalForwardAuth implements ForwardAuth {
  readonly local = true;

  constructor(private readonly verifyToken: VerifyFunction) {}

  verify(request: FastifyRequest): Promise<Principal> {
    return this.verifyToken(
      request.headers.authorization,
      request.method,
      request.url.split('?')[0]!,
    );
  }

  async close() {}
}

/** One service per process: forward-auth over HTTP to AUTH_SERVICE_URL. */
export class HttpForwardAuth implements ForwardAuth {
  private readonly pool: Pool;

  constructor(authUrl: string) {
    this.pool = new Pool(authUrl, { connections: 64, headersTimeout: 5000, bodyTimeout: 5000 });
  }

  async verify(request: FastifyRequest): Promise<Principal> {
    const authorization = request.headers.authorization;
    if (!authorization) throw new AppError(ERROR_CODES.UNAUTHENTICATED);
    let response;
    try {
      response = await this.pool.request({
        path: '/internal/auth/verify',
        method: 'GET',
        headers: {
          authorization,
          'x-forwarded-method': request.method,
          'x-forwarded-uri': request.url,
          'x-request-id': request.id,
        },
      });
    } catch (err) {
      // Logged once, as a warning naming the auth service, by the error handler.
      throw AppError.unavailable(new DependencyDownError('auth', err), UNAVAILABLE_TEXT);
    }
    const body = (await response.body.json().catch(() => null)) as {
      code?: number;
      message?: string;
      data?: Principal;
    } | null;
    if (response.statusCode === 200 && body?.data) return body.data;
    if ((response.statusCode === 401 || response.statusCode === 403) && body?.code) {
      throw new AppError(body.code as ErrorCode, body.message);
    }
    // Fail closed on anything unexpected.
    const cause = new Error(`forward-auth answered HTTP ${response.statusCode}`);
    throw AppError.unavailable(new DependencyDownError('auth', cause), UNAVAILABLE_TEXT);
  }

  async close() {
    await this.pool.close();
  }
}
