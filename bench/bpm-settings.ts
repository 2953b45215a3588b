/**
 * The settings `npm run bench:bpm` gives the platform under test, the same in every layout (on
 * top of the layout's own addresses, secrets and scratch database).
 */
import { coreEnv } from '../src/config/core-env.js';

/** Connections of each platform process's pool: DB_POOL_SIZE, else the platform's default. */
export const benchPoolSize = (): number => coreEnv.DB_POOL_SIZE.parse(process.env.DB_POOL_SIZE);

export function benchPlatformEnv(): Record<string, string> {
  return {
    APP_ENV: 'test',
    LOG_LEVEL: 'warn',
    LOGIN_CAPTCHA: 'off',
    DATA_DIR: 'memory://',
    DB_POOL_SIZE: String(benchPoolSize()),
    // The whole run, todo fill included, on the tokens minted at set-up.
    ACCESS_TOKEN_TTL: '3h',
    // One client IP sends everything: the limiter runs on every request, with a budget the load
    // cannot exhaust, so the figures show its cost, not its refusals.
    GATEWAY_RATE_AVERAGE: '10000000',
    GATEWAY_RATE_BURST: '10000000',
  };
}
