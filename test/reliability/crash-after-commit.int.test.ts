import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { businessTask } from '../bpm/fixtures.js';
import { uniq, TEST_JWT_SECRET } from '../helpers/platform.js';
import { realServers } from '../helpers/real-servers.js';
import { createScratchDatabase } from '../helpers/scratch-database.js';
import { until } from '../helpers/until.js';

// RELIABILITY matrix row 6 and issue 19 item 3, with a real crash: the platform process is
// SIGKILLed right after an approval's transaction commits (failpoint
// after_commit_before_dispatch), before it answers or sends the terminal-state callback. A
// platform started again on the same database delivers the callback once, and the client's
// retry with the same Idempotency-Key gets the original answer, not a 409.
// Row 7 with a real crash too: the process is SIGKILLed after the receiver answered 2xx and before
// the row is marked delivered (failpoint after_2xx_before_mark); the platform started again sends
// the same event again, under the same event id, so a receiver that dedupes applies it once.

const INTERNAL_TOKEN = 'internal-Kq7-9vX2-Lm4P-token';
/** One business type per test: a type belongs to one definition. */
const BIZ_TYPES = { commit: uniq('crash').toLowerCase(), mark: uniq('mark').toLowerCase() };
const callbackEnv = (type: string) =>
  `BPM_CALLBACK_${type.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;
let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
let receiver: Server;
const received: string[] = [];

beforeAll(async () => {
  if (!realServers.database) return;
  scratch = await createScratchDatabase(process.env.DATABASE_URL!);
  receiver = createServer((req, res) => {
    received.push(String(req.headers['idempotency-key']));
    req.resume();
    req.on('end', () => res.end());
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
});
afterAll(async () => {
  await new Promise((r) => receiver?.close(r));
  await scratch?.drop();
});

/** Starts the platform in a child process on the scratch database; resolves with its URL. */
async function startChild(failpoint?: string): Promise<{ url: string; child: ChildProcess }> {
  const port = (receiver.address() as { port: number }).port;
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', fileURLToPath(new URL('./platform-child.ts', import.meta.url))],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: {
        ...process.env,
        DATABASE_URL: scratch.url,
        REDIS_URL: '',
        NATS_URL: '',
        JWT_SECRET: TEST_JWT_SECRET,
        BPM_INTERNAL_TOKEN: INTERNAL_TOKEN,
        [callbackEnv(BIZ_TYPES.commit)]: `http://127.0.0.1:${port}/cb`,
        [callbackEnv(BIZ_TYPES.mark)]: `http://127.0.0.1:${port}/cb`,
        BPM_OUTBOX_POLL_INTERVAL: '100ms',
        // The outbox poller of the first process can claim the row between the commit and the
        // kill; the claim then holds until its lease runs out, and only then does the second
        // process take it over. A short lease keeps that recovery inside the test's wait.
        BPM_OUTBOX_LEASE: '2s',
        FAILPOINT: failpoint ?? '',
      },
    },
  );
  children.push(child);
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (line.startsWith('READY ')) resolve(line.slice('READY '.length));
    });
    child.once('exit', (code) => reject(new Error(`platform exited with ${code}`)));
  });
  return { url, child };
}

async function call(
  url: string,
  method: string,
  path: string,
  init: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
) {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: {
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
      ...init.headers,
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, body: JSON.parse(text) as any };
}

/** The admin's token and a business task of `bizType` (the fixture) on the platform at `url`. */
async function businessTaskAt(url: string, bizType: string) {
  const login = await call(url, 'POST', '/api/v1/login', {
    body: { username: 'admin', password: 'admin123' },
  });
  const admin = login.body.data.access_token as string;
  const client = {
    call: (method: string, path: string, init = {}) => call(url, method, path, init),
  };
  return { admin, ...(await businessTask(client, admin, bizType, INTERNAL_TOKEN)) };
}

/** The callback rows of instance `instanceId`, read from the scratch database. */
async function callbackRows(instanceId: number) {
  const db = new pg.Client({ connectionString: scratch.url });
  await db.connect();
  try {
    const { rows } = await db.query<{ event_id: string; status: string }>(
      `SELECT event_id, status FROM bpm_outbox
       WHERE kind = 'callback' AND (payload->>'instance_id')::bigint = $1`,
      [instanceId],
    );
    return rows;
  } finally {
    await db.end();
  }
}

const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
});

// Two platform starts in child processes and a 5 s wait for the lost answer: a long test.
describe.skipIf(!realServers.database)(
  'a crash right after an approval commits',
  { timeout: 90_000 },
  () => {
    it('delivers the callback once after a restart, and the retry gets the original answer', async () => {
      const first = await startChild('after_commit_before_dispatch:sigkill');
      const { admin, task, instanceId } = await businessTaskAt(first.url, BIZ_TYPES.commit);
      const key = uniq('crash-key');
      const exited = new Promise((r) => first.child.once('exit', r));
      // The process dies between the commit and the answer: the client sees the connection go.
      await expect(
        call(first.url, 'POST', `/api/v1/bpm/tasks/${task.id}/approve`, {
          token: admin,
          body: {},
          headers: { 'idempotency-key': key },
        }),
      ).rejects.toThrow();
      await exited;
      expect(received).toEqual([]);

      const second = await startChild();
      try {
        const retried = await call(second.url, 'POST', `/api/v1/bpm/tasks/${task.id}/approve`, {
          token: admin,
          body: {},
          headers: { 'idempotency-key': key },
        });
        expect(retried.status).toBe(200);
        expect(retried.headers.get('idempotent-replayed')).toBe('true');
        expect(retried.body.data).toMatchObject({ id: task.id, status: 'done' });
        await until('the callback', () => received.length > 0);
        await new Promise((r) => setTimeout(r, 500));
        expect(received).toHaveLength(1);
        // The row is settled as delivered under the event id the receiver saw (marked after
        // the receiver's 2xx: read until it is, within the same wait).
        let rows = await callbackRows(instanceId);
        await until(
          'the row marked delivered',
          async () => (rows = await callbackRows(instanceId))[0]?.status === 'delivered',
        );
        expect(rows).toEqual([{ event_id: received[0], status: 'delivered' }]);
      } finally {
        second.child.kill('SIGTERM');
        await new Promise((r) => second.child.once('exit', r));
      }
    });

    it('sends the callback again under the same event id when the process dies after the 2xx, before marking it', async () => {
      received.length = 0;
      const first = await startChild('after_2xx_before_mark:sigkill');
      const { admin, task, instanceId } = await businessTaskAt(first.url, BIZ_TYPES.mark);
      const exited = new Promise<NodeJS.Signals | null>((r) =>
        first.child.once('exit', (_code, signal) => r(signal)),
      );
      const approved = await call(first.url, 'POST', `/api/v1/bpm/tasks/${task.id}/approve`, {
        token: admin,
        body: {},
      });
      expect(approved.status).toBe(200);
      // The receiver's 2xx arrives, then the process dies before the row is marked.
      expect(await exited).toBe('SIGKILL');
      expect(received).toHaveLength(1);
      expect((await callbackRows(instanceId))[0]?.status).toBe('pending');

      const second = await startChild();
      try {
        // Taken over once the dead process's lease (2 s) has run out.
        let rows = await callbackRows(instanceId);
        await until(
          'the row delivered by the second process',
          async () => (rows = await callbackRows(instanceId))[0]?.status === 'delivered',
          20_000,
        );
        expect(rows).toEqual([{ event_id: received[0], status: 'delivered' }]);
        // Delivered again, always under the one event id: a receiver keyed on it applies it once.
        expect(received.length).toBeGreaterThanOrEqual(2);
        expect(new Set(received)).toEqual(new Set([received[0]]));
      } finally {
        second.child.kill('SIGTERM');
        await new Promise((r) => second.child.once('exit', r));
      }
    });
  },
);
