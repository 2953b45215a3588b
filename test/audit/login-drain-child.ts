/**
 * A login-log consumer in its own process, for the crash test: it stores the first batch (or
 * message) it is given, prints `STORED <n>`, then hangs without acknowledging until it is
 * killed. Settings from the environment (DATABASE_URL, NATS_*), plus DRAIN_SUBJECT and
 * DRAIN_DURABLE.
 */
import { loadSettings } from '../../src/start.js';
import { openKernel } from '../../src/platform/kernel.js';
import { createLogger } from '../../src/platform/logging/logger.js';
import { loginLogHandlers } from '../../src/services/audit/login-logs/login-logs.consumer.js';
import { GeoLocator } from '../../src/services/audit/login-logs/login-logs.enrich.js';
import type { LoginLogTables } from '../../src/services/audit/login-logs/login-logs.repo.js';

const settings = loadSettings({ ...process.env, APP_ENV: 'test', LOG_LEVEL: 'silent' });
const kernel = await openKernel(settings, createLogger('silent'));
const db = kernel.database.db.withTables<LoginLogTables>();
const real = loginLogHandlers(db, new GeoLocator({ cache: kernel.cache }));
const hang = () => new Promise<never>(() => undefined);
kernel.stream.consume(
  process.env.DRAIN_DURABLE!,
  [process.env.DRAIN_SUBJECT!],
  async (payload, meta) => {
    await real.handler(payload, meta);
    process.stdout.write('STORED 1\n');
    await hang();
  },
  {
    ackWaitMs: 2000,
    backoffMs: 50,
    pollIntervalMs: 50,
    batchSize: 50,
    handleBatch: async (deliveries) => {
      await real.handleBatch(deliveries);
      process.stdout.write(`STORED ${deliveries.length}\n`);
      await hang();
    },
  },
);
process.stdout.write('READY\n');
