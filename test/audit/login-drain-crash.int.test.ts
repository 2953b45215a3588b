import { spawn } from 'node:child_process';
import { randomInt, randomUUID } from 'node:crypto';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeliveryMeta } from '../../src/platform/stream/stream.js';
import { loginLogHandlers } from '../../src/services/audit/login-logs/login-logs.consumer.js';
import { GeoLocator } from '../../src/services/audit/login-logs/login-logs.enrich.js';
import type {
  LoginLogDb,
  LoginLogTables,
} from '../../src/services/audit/login-logs/login-logs.repo.js';
import { startTestPlatform, uniq, type TestPlatform } from '../helpers/platform.js';
import { realServers } from '../helpers/real-servers.js';
import { until } from '../helpers/until.js';

let platform: TestPlatform;
let db: LoginLogDb;
beforeAll(async () => {
  platform = await startTestPlatform();
  db = platform.kernel.database.db.withTables<LoginLogTables>();
});
afterAll(() => platform?.close());

const EVENTS = 5;
const fast = { ackWaitMs: 2000, backoffMs: 50, pollIntervalMs: 50 };

/** Publishes EVENTS login events on a subject of their own; returns their event ids. */
async function publishLogins(subject: string): Promise<string[]> {
  const user = randomInt(1e6, 1e9);
  const ids = Array.from({ length: EVENTS }, () => randomUUID());
  for (const id of ids) {
    await platform.kernel.stream.publish(
      subject,
      {
        event: 'auth.login.success',
        event_id: id,
        tenant_id: 1,
        user_id: user,
        username: `u${user}`,
        login_type: 'password',
        success: true,
        reason: null,
        ip: '203.0.113.9',
        user_agent: 'curl/8.4.0',
        device_id: 'same-device',
        request_id: 'r',
        occurred_at: new Date().toISOString(),
      },
      id,
    );
  }
  return ids;
}

async function rowsPerEvent(ids: string[]): Promise<number[]> {
  const rows = await db
    .selectFrom('audit_login_logs')
    .select('event_id')
    .where('event_id', 'in', ids)
    .execute();
  return ids.map((id) => rows.filter((r) => r.event_id === id).length);
}

/** The real consumer, as a second process would run it after the crash. */
function startSurvivor(
  durable: string,
  subject: string,
  deliveries: DeliveryMeta[],
  batchSize = 50,
) {
  const real = loginLogHandlers(db, new GeoLocator({ cache: platform.kernel.cache }));
  return platform.kernel.stream.consume(
    durable,
    [subject],
    async (payload, meta) => {
      deliveries.push(meta);
      await real.handler(payload, meta);
    },
    {
      ...fast,
      batchSize,
      handleBatch: async (batch) => {
        deliveries.push(...batch.map((d) => d.meta));
        await real.handleBatch(batch);
      },
    },
  );
}

const backend = process.env.NATS_URL ? 'JetStream' : 'table stream';

describe(`a login-log consumer that dies between storing and acknowledging (${backend})`, () => {
  // Batches of 1 put the events in several batches, two in flight at the crash: what happens
  // with batches of 50 when the events reach the client in more than one read (the cause of
  // this test's earlier timeouts on a loaded machine).
  it.each([
    ['one batch', 50],
    ['batches in flight', 1],
  ])(
    'has its messages redelivered to the next consumer, and each event stored once (%s)',
    async (_label, batchSize) => {
      const subject = `auth.test.${uniq('crash')}`;
      const durable = uniq('crash');
      const ids = await publishLogins(subject);
      const real = loginLogHandlers(db, new GeoLocator({ cache: platform.kernel.cache }));
      let crashed = false;
      let stored!: () => void;
      const storedOnce = new Promise<void>((resolve) => (stored = resolve));
      let revive!: (err: Error) => void;
      const dead = new Promise<never>((_, reject) => (revive = reject));
      // Stores, then never answers: the process is gone as far as the stream can tell. Whatever
      // it handles after the crash never answers either: with two batches in flight, messages that
      // arrive split over two batches would otherwise have the second batch acknowledged by the
      // "dead" consumer, and the survivor would never see EVENTS acknowledgements.
      const thenDie = async () => {
        if (!crashed) {
          crashed = true;
          stored();
        }
        await dead;
      };
      const first = platform.kernel.stream.consume(
        durable,
        [subject],
        async (payload, meta) => {
          await real.handler(payload, meta);
          await thenDie();
        },
        {
          ...fast,
          batchSize,
          handleBatch: async (batch) => {
            await real.handleBatch(batch);
            await thenDie();
          },
        },
      );
      await storedOnce;
      const storedBeforeCrash = (await rowsPerEvent(ids)).filter((n) => n === 1).length;
      expect(storedBeforeCrash).toBeGreaterThanOrEqual(1);
      const stopping = first.stop(); // no more deliveries to it; its batch stays unanswered

      const deliveries: DeliveryMeta[] = [];
      const survivor = startSurvivor(durable, subject, deliveries, batchSize);
      try {
        await until(
          'every event acked by the survivor',
          () => survivor.stats.acked === EVENTS,
          20_000,
        );
        expect(await rowsPerEvent(ids)).toEqual(ids.map(() => 1));
        const redelivered = deliveries.filter((d) => d.deliveryCount >= 2).map((d) => d.msgId);
        expect(redelivered.length).toBeGreaterThanOrEqual(storedBeforeCrash);
        expect(first.stats.acked).toBe(0);
      } finally {
        revive(new Error('the dead consumer wakes up late'));
        await stopping;
        await survivor.stop();
      }
      // The late answer of the first consumer changes nothing.
      expect(await rowsPerEvent(ids)).toEqual(ids.map(() => 1));
    },
  );

  it.runIf(realServers.database)(
    'survives a SIGKILL of the consumer process after the store, before the ack',
    async () => {
      const subject = `auth.test.${uniq('kill')}`;
      const durable = uniq('kill');
      const ids = await publishLogins(subject);
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', fileURLToPath(new URL('./login-drain-child.ts', import.meta.url))],
        {
          stdio: ['ignore', 'pipe', 'inherit'],
          env: {
            ...process.env,
            DATABASE_URL: platform.settings.database.url,
            NATS_STREAM: platform.settings.nats.stream,
            NATS_SUBJECT_PREFIX: platform.settings.nats.subjectPrefix,
            DATA_DIR: 'memory://',
            DRAIN_SUBJECT: subject,
            DRAIN_DURABLE: durable,
          },
        },
      );
      try {
        await new Promise<void>((resolve, reject) => {
          createInterface({ input: child.stdout! }).on('line', (line) => {
            if (line.startsWith('STORED')) resolve();
          });
          child.once('exit', (code) => reject(new Error(`child exited with ${code}`)));
        });
        child.kill('SIGKILL');
        await new Promise((r) => child.once('exit', r));
        const storedBeforeKill = (await rowsPerEvent(ids)).filter((n) => n === 1).length;
        expect(storedBeforeKill).toBeGreaterThanOrEqual(1);

        const deliveries: DeliveryMeta[] = [];
        const survivor = startSurvivor(durable, subject, deliveries);
        try {
          await until(
            'every event acked by the survivor',
            () => survivor.stats.acked === EVENTS,
            20_000,
          );
          expect(await rowsPerEvent(ids)).toEqual(ids.map(() => 1));
          const redelivered = deliveries.filter((d) => d.deliveryCount >= 2);
          expect(redelivered.length).toBeGreaterThanOrEqual(storedBeforeKill);
        } finally {
          await survivor.stop();
        }
      } finally {
        if (child.exitCode === null) child.kill('SIGKILL');
      }
    },
    60_000,
  );
});
