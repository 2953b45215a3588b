/**
 * The servers under test, in one child process so the load generator never shares their CPU:
 * the whole platform (all-in-one: gateway and services on one event loop, as `npm start` runs
 * it) and the baseline, a bare @fastify/http-proxy hop in front of a Fastify hello-world, also
 * on one event loop. Prints one JSON line with the URLs and the secrets the runner needs.
 */
import httpProxy from '@fastify/http-proxy';
import Fastify from 'fastify';
import { loadSettings } from '../src/start.js';
import { createLogger } from '../src/platform/logging/logger.js';
import { startPlatform } from '../src/start.js';
import { createScratchDatabase } from '../test/helpers/scratch-database.js';

const scratch = process.env.DATABASE_URL
  ? await createScratchDatabase(process.env.DATABASE_URL, 'approva_bench')
  : undefined;
const settings = loadSettings({
  ...process.env,
  APP_ENV: 'test',
  LOG_LEVEL: 'warn',
  HOST: '127.0.0.1',
  PORT: '0',
  METRICS_PORT: '0',
  LOGIN_CAPTCHA: 'off',
  DATA_DIR: 'memory://',
  JWT_SECRET: 'bench-jwt-secret-0123456789abcdef0123456789',
  // One client IP sends everything here: the limiter still runs on every request, but with a
  // budget the load cannot exhaust, so the figures measure its cost, not its refusals.
  GATEWAY_RATE_AVERAGE: '10000000',
  GATEWAY_RATE_BURST: '10000000',
  ...(scratch ? { DATABASE_URL: scratch.url } : {}),
});
const platform = await startPlatform(settings, createLogger('warn'));

const hello = Fastify();
hello.get('/hello', async () => ({ code: 200, message: 'success', data: { hello: 'world' } }));
await hello.listen({ host: '127.0.0.1', port: 0 });
const helloUrl = `http://127.0.0.1:${(hello.server.address() as { port: number }).port}`;
const proxy = Fastify();
await proxy.register(httpProxy, { upstream: helloUrl, prefix: '/hello', rewritePrefix: '/hello' });
await proxy.listen({ host: '127.0.0.1', port: 0 });
const proxyUrl = `http://127.0.0.1:${(proxy.server.address() as { port: number }).port}`;

process.stdout.write(
  `BENCH_SERVERS ${JSON.stringify({
    gateway: platform.url,
    auth: platform.serviceUrls.auth,
    hello: helloUrl,
    proxy: proxyUrl,
    signingSecret: settings.gateway.signingSecret,
    database: platform.kernel.database.kind,
    cache: platform.kernel.cache.kind,
  })}\n`,
);

const stop = async () => {
  await proxy.close();
  await hello.close();
  await platform.close();
  await scratch?.drop();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
