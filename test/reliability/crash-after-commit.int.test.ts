import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEAVE_FORM, singleApproval } from '../bpm/fixtures.js';
import { uniq, TEST_JWT_SECRET } from '../helpers/platform.js';
import { realServers } from '../helpers/real-servers.js';
import { createScratchDatabase } from '../helpers/scratch-database.js';

// RELIABILITY matrix row 6 and issue 19 item 3, with a real crash: the platform process is
// SIGKILLed right after an approval's transaction commits (failpoint
// after_commit_before_dispatch), before it answers or sends the terminal-state callback. A
// platform started again on the same database delivers the callback once, and the client's
// retry with the same Idempotency-Key gets the original answer, not a 409.

const INTERNAL_TOKEN = 'internal-Kq7-9vX2-Lm4P-token';
const bizType = uniq('crash').toLowerCase();
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
        [`BPM_CALLBACK_${bizType.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`]: `http://127.0.0.1:${port}/cb`,
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
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
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
      const login = await call(first.url, 'POST', '/api/v1/login', {
        body: { username: 'admin', password: 'admin123' },
      });
      const admin = login.body.data.access_token as string;
      const created = await call(first.url, 'POST', '/api/v1/bpm/definitions', {
        token: admin,
        body: {
          key: uniq('crash').toLowerCase().replace(/_/g, '-'),
          name: 'Crash',
          form_mode: 'business',
          biz_type: bizType,
          form_schema: LEAVE_FORM,
          node_tree: {
            ...singleApproval([1]),
            child: { ...singleApproval([1]).child, allowInitiator: true },
          },
        },
      });
      expect(created.status).toBe(200);
      const published = await call(
        first.url,
        'POST',
        `/api/v1/bpm/definitions/${created.body.data.id}/publish`,
        { token: admin },
      );
      expect(published.status).toBe(200);
      const started = await call(first.url, 'POST', '/api/v1/bpm/internal/instances', {
        headers: { 'x-internal-token': INTERNAL_TOKEN },
        body: {
          tenant_id: 1,
          initiator_id: 1,
          definition_key: created.body.data.key,
          biz_id: uniq('B'),
          form: { reason: 'r', days: 1 },
        },
      });
      expect(started.status).toBe(200);
      const todo = await call(first.url, 'GET', '/api/v1/bpm/tasks/todo?page_size=100', {
        token: admin,
      });
      const task = todo.body.data.list.find((t: any) => t.instance_id === started.body.data.id);
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
        const deadline = Date.now() + 15_000;
        while (received.length === 0 && Date.now() < deadline) {
          await new Promise((r) => setTimeout(r, 100));
        }
        await new Promise((r) => setTimeout(r, 500));
        expect(received).toHaveLength(1);
        // The row is settled as delivered under the event id the receiver saw (marked after
        // the receiver's 2xx: read until it is, within the same wait).
        const outbox = async () => {
          const db = new pg.Client({ connectionString: scratch.url });
          await db.connect();
          try {
            const { rows } = await db.query<{ event_id: string; status: string }>(
              `SELECT event_id, status FROM bpm_outbox
               WHERE kind = 'callback' AND (payload->>'instance_id')::bigint = $1`,
              [started.body.data.id],
            );
            return rows;
          } finally {
            await db.end();
          }
        };
        let rows = await outbox();
        while (rows[0]?.status !== 'delivered' && Date.now() < deadline) {
          await new Promise((r) => setTimeout(r, 100));
          rows = await outbox();
        }
        expect(rows).toEqual([{ event_id: received[0], status: 'delivered' }]);
      } finally {
        second.child.kill('SIGTERM');
        await new Promise((r) => second.child.once('exit', r));
      }
    });
  },
);
