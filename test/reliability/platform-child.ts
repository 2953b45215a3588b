/**
 * A whole platform in its own process, for crash tests: settings from the environment (the
 * test's DATABASE_URL and FAILPOINT among them); prints `READY <url>` once it listens. A
 * failpoint armed with `sigkill` ends it mid-request, as a crash would.
 */
import { createLogger } from '../../src/platform/logging/logger.js';
import { loadSettings, startPlatform } from '../../src/start.js';

const settings = loadSettings({
  ...process.env,
  APP_ENV: 'test',
  LOG_LEVEL: 'silent',
  HOST: '127.0.0.1',
  PORT: '0',
  METRICS_PORT: '0',
  LOGIN_CAPTCHA: 'off',
  DATA_DIR: 'memory://',
});
const platform = await startPlatform(settings, createLogger('silent'));
process.stdout.write(`READY ${platform.url}\n`);
