import { randomBytes } from 'node:crypto';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import type { DestinationStream } from 'pino';
import { loadSettings } from '../../src/start.js';
import { type Settings } from '../../src/config/settings.js';
import { createLogger } from '../../src/platform/logging/logger.js';
import { startPlatform, type AllInOnePlatform as RunningPlatform } from '../../src/start.js';
import { PGLITE_TEMPLATE } from './pglite-template.setup.js';
import { RACE_ROUNDS } from './barrier.js';
import { createScratchDatabase } from './scratch-database.js';

/** The JWT secret every test platform uses, so tests can mint their own (expired, forged) tokens. */
export const TEST_JWT_SECRET = 'integration-tests-jwt-secret-0123456789abcdef';

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
  text: string;
}

export interface CallOptions {
  token?: string | undefined;
  body?: unknown;
  /** Sent as is (malformed JSON, oversized bodies). */
  rawBody?: string | Uint8Array;
  headers?: Record<string, string>;
}

export interface TestPlatform extends RunningPlatform {
  settings: Settings;
  call<T = any>(method: string, path: string, options?: CallOptions): Promise<ApiResponse<T>>;
  /**
   * Signs in through the gateway (throws on failure). A user an administrator created must change
   * the password at first sign-in: unless `keepPasswordChange`, that change is made here, to a
   * temporary password and back, so fixtures keep the password they chose.
   */
  login(
    username: string,
    password: string,
    tenantCode?: string,
    options?: { keepPasswordChange?: boolean },
  ): Promise<LoginResult>;
  adminToken(): Promise<string>;
  /**
   * The first-sign-in password change of an administrator-created user, made to a temporary
   * password and back, so the user keeps `password`.
   */
  completePasswordChange(token: string, password: string, username?: string): Promise<void>;
}

export interface LoginResult {
  access_token: string;
  refresh_token: string;
  user: { id: number; tenant_id: number; [key: string]: unknown };
}

/** Removes the per-file JetStream stream so test runs leave nothing behind on the server. */
async function deleteStream(settings: Settings) {
  const nc = await connect({ servers: settings.nats.url, timeout: 2000 }).catch(() => undefined);
  if (!nc) return;
  try {
    const jsm = await jetstreamManager(nc);
    await jsm.streams.delete(settings.nats.stream).catch(() => undefined);
  } finally {
    await nc.close();
  }
}

export const uniq = (prefix: string) => `${prefix}_${randomBytes(4).toString('hex')}`;

/**
 * Starts a whole platform (gateway and services) for one test file: on embedded PGlite in memory,
 * or, when DATABASE_URL/REDIS_URL/NATS_URL are set, on a fresh database, a unique Redis key
 * prefix and a unique JetStream stream of those servers.
 */
export interface TestPlatformOptions {
  /** Where the platform's logs go (at `TEST_LOG_LEVEL`, else `info`), instead of nowhere. */
  logs?: DestinationStream;
  /**
   * Adjusts the loaded settings, for a mode the test machine cannot configure honestly (a
   * production start needs a passworded PostgreSQL): used for `production` only.
   */
  adjust?: (settings: Settings) => Settings;
}

export async function startTestPlatform(
  env: Record<string, string> = {},
  options: TestPlatformOptions = {},
): Promise<TestPlatform> {
  const id = randomBytes(4).toString('hex');
  const scratch = process.env.DATABASE_URL
    ? await createScratchDatabase(process.env.DATABASE_URL)
    : undefined;
  const source: Record<string, string> = {
    APP_ENV: 'test',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? (options.logs ? 'info' : 'silent'),
    HOST: '127.0.0.1',
    PORT: '0',
    METRICS_PORT: '0',
    LOGIN_CAPTCHA: 'off',
    DATA_DIR: 'memory://',
    JWT_SECRET: TEST_JWT_SECRET,
    DB_CONNECT_RETRIES: '3',
    ...(scratch ? { DATABASE_URL: scratch.url } : {}),
    ...(process.env.REDIS_URL
      ? { REDIS_URL: process.env.REDIS_URL, REDIS_KEY_PREFIX: `t${id}:` }
      : {}),
    ...(process.env.NATS_URL
      ? { NATS_URL: process.env.NATS_URL, NATS_STREAM: `T_${id}`, NATS_SUBJECT_PREFIX: `t${id}.` }
      : {}),
    // The whole fault matrix runs each race 200 times: a file then runs for a quarter of an hour
    // on the tokens it signed in with at its start, and its races' expected failed sign-ins come
    // from one address, hundreds of them. Neither rule is what a race checks (each has its own
    // test, with its own settings); with them at their defaults the rounds fail on 401 and 429.
    ...(RACE_ROUNDS > 1 ? { ACCESS_TOKEN_TTL: '12h', LOGIN_IP_MAX_FAILURES: '1000000' } : {}),
    ...env,
  };
  // A throw-away embedded database starts from the initialised dump, not from initdb.
  const inMemory = !source.DATABASE_URL && source.DATA_DIR!.startsWith('memory://');
  const loaded = loadSettings(inMemory ? { DATA_TEMPLATE: PGLITE_TEMPLATE, ...source } : source);
  const settings = options.adjust ? options.adjust(loaded) : loaded;
  const logger = createLogger(settings.logLevel, {}, options.logs);
  let running: RunningPlatform;
  try {
    running = await startPlatform(settings, logger);
  } catch (err) {
    await scratch?.drop();
    throw err;
  }

  // The closures below keep only what they need: a closed platform must not keep its kernel (an
  // embedded database is ~250 MB) alive through them (see `close`).
  const url = running.url;
  let stopRunning: (() => Promise<void>) | undefined = running.close;
  const call = async (
    method: string,
    path: string,
    options: CallOptions = {},
  ): Promise<ApiResponse> => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let body: string | Uint8Array | undefined;
    if (options.rawBody !== undefined) {
      body = options.rawBody;
      headers['content-type'] ??= 'application/json';
    } else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] = 'application/json';
    }
    const response = await fetch(`${url}${path}`, { method, headers, body });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON: keep the text
    }
    return { status: response.status, body: parsed, headers: response.headers, text };
  };

  const completePasswordChange = async (token: string, password: string, username = '') => {
    const temporary = `Temp-${randomBytes(9).toString('base64url')}`;
    for (const [from, to] of [
      [password, temporary],
      [temporary, password],
    ]) {
      const change = await call('POST', '/api/v1/me/password', {
        token,
        body: { old_password: from, new_password: to },
      });
      if (change.status !== 200)
        throw new Error(`first password change of ${username} failed: ${change.text}`);
    }
  };

  const login = async (
    username: string,
    password: string,
    tenantCode?: string,
    options: { keepPasswordChange?: boolean } = {},
  ) => {
    const res = await call('POST', '/api/v1/login', {
      body: { username, password, ...(tenantCode ? { tenant_code: tenantCode } : {}) },
    });
    if (res.status !== 200)
      throw new Error(`login of ${username} failed: ${res.status} ${res.text}`);
    const data = res.body.data as LoginResult;
    if (data.user.must_change_password && !options.keepPasswordChange) {
      await completePasswordChange(data.access_token, password, username);
      const me = await call('GET', '/api/v1/me', { token: data.access_token });
      data.user = me.body.data;
    }
    return data;
  };

  let adminToken: string | undefined;
  const platform: TestPlatform = {
    ...running,
    settings,
    call,
    login,
    completePasswordChange,
    async adminToken() {
      adminToken ??= (await login('admin', 'admin123')).access_token;
      return adminToken;
    },
    async close() {
      const stop = stopRunning;
      stopRunning = undefined;
      await stop?.();
      // A test file's module keeps its `platform` after the file ends, and where files share a
      // worker's modules (the console's unit tests do; integration files could), every closed
      // platform would stay in memory: drop the kernel and the process's own close.
      Object.assign(platform, { kernel: undefined });
      await scratch?.drop();
      if (settings.nats.url && settings.nats.stream.startsWith('T_')) await deleteStream(settings);
    },
  };
  return platform;
}
