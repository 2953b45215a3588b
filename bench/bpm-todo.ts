/**
 * The todo list at scale, for `npm run bench:bpm`: 1 000 000 rows in bpm_tasks (and their
 * instances) written straight into the scratch database by one INSERT ... SELECT each, then
 * EXPLAIN (ANALYZE, BUFFERS) of the exact statements listTodo sends, then
 * GET /api/v1/bpm/tasks/todo through the gateway, one request at a time and concurrently.
 */
import { Kysely, PostgresDialect, type CompiledQuery } from 'kysely';
import pg from 'pg';
import { listTodo } from '../src/services/bpm/tasks/tasks.repo.js';
import type { BpmTables } from '../src/services/bpm/bpm.tables.js';
import { Api, percentile } from './bpm-client.js';

export interface FillShape {
  tasks: number;
  definitionId: number;
  definitionKey: string;
  targetUserId: number;
  /** Pending tasks of the target user (exactly). */
  targetPending: number;
}

const USERS = 20_000; // distinct assignees and initiators of the bulk rows
const FIRST_FAKE_USER = 1_000_000; // above every real user id
const RUNNING_EVERY = 20; // one instance in 20 is still running: its second task is pending

/** Two tasks per instance (`n1` done, `n2` done or pending), as the two-approval flow leaves them. */
const INSERT_INSTANCES = `
INSERT INTO bpm_instances (id, tenant_id, definition_id, definition_key, definition_version, title,
  status, initiator_id, biz_type, biz_id, form, path, current_node_id, created_at, updated_at, finished_at)
SELECT $1::bigint + k, 1, $2::bigint, $3::text, 1, 'Bench: two approvals',
  CASE WHEN running THEN 'running' ELSE 'approved' END,
  ${FIRST_FAKE_USER} + (k::bigint * 7919) % ${USERS}, 'flow:' || $3::text, 'bulk-' || k,
  '{"reason": "Bulk", "days": 2}'::jsonb, '["start", "n1", "n2"]'::jsonb,
  CASE WHEN running THEN 'n2' END,
  created, created + interval '30 minutes', CASE WHEN NOT running THEN created + interval '2 hours' END
FROM (SELECT k, k % ${RUNNING_EVERY} = 0 AS running,
             now() - make_interval(secs => ($4::int - k) * 30.0) AS created
      FROM generate_series(1, $4::int) AS k) AS s`;

/**
 * Task j belongs to instance (j + 1) / 2; even j is node `n2`, pending when its instance runs.
 * The target user holds the pending tasks of the first `targetPending` running instances and
 * about one done task in a thousand; everyone else is one of USERS made-up users.
 */
const INSERT_TASKS = `
INSERT INTO bpm_tasks (id, tenant_id, instance_id, node_id, node_name, kind, assignee_id, status,
  result, round, comment, created_at, finished_at)
SELECT $1::bigint + j, 1, $2::bigint + k, CASE WHEN j % 2 = 1 THEN 'n1' ELSE 'n2' END,
  CASE WHEN j % 2 = 1 THEN 'Approve 1' ELSE 'Approve 2' END, 'approval',
  CASE WHEN pending AND k <= $4::int * ${RUNNING_EVERY} THEN $3::bigint
       WHEN NOT pending AND j % 997 = 0 THEN $3::bigint
       ELSE ${FIRST_FAKE_USER} + (j::bigint * 104729) % ${USERS} END,
  CASE WHEN pending THEN 'pending' ELSE 'done' END, CASE WHEN NOT pending THEN 'approved' END,
  1, CASE WHEN NOT pending THEN 'ok' END, created, CASE WHEN NOT pending THEN created + interval '1 hour' END
FROM (SELECT j, (j + 1) / 2 AS k, j % 2 = 0 AND ((j + 1) / 2) % ${RUNNING_EVERY} = 0 AS pending,
             now() - make_interval(secs => ($5::int - j) * 15.0) AS created
      FROM generate_series(1, $5::int) AS j) AS s`;

async function withProgress<T>(url: string, table: string, rows: number, work: Promise<T>) {
  const watcher = new pg.Client({ connectionString: url });
  await watcher.connect();
  const started = performance.now();
  const tick = async () => {
    const { rows: r } = await watcher.query<{ mb: string }>(
      `SELECT round(pg_relation_size($1) / 1048576.0) AS mb`,
      [table],
    );
    const s = Math.round((performance.now() - started) / 1000);
    process.stderr.write(
      `\r  ${table}: writing ${rows.toLocaleString('en-US')} rows, ${r[0]!.mb} MB of heap so far, ${s} s   `,
    );
  };
  const timer = setInterval(() => void tick().catch(() => undefined), 2000);
  try {
    return await work;
  } finally {
    clearInterval(timer);
    await tick().catch(() => undefined);
    process.stderr.write('\n');
    await watcher.end();
  }
}

/** Fills bpm_instances and bpm_tasks in the scratch database, then ANALYZE. Seconds taken. */
export async function fillTasks(url: string, shape: FillShape): Promise<number> {
  const started = performance.now();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const max = async (table: string) =>
      Number(
        (await client.query<{ m: string }>(`SELECT coalesce(max(id), 0) AS m FROM ${table}`))
          .rows[0]!.m,
      ) + 1000;
    const [instanceBase, taskBase] = [await max('bpm_instances'), await max('bpm_tasks')];
    const instances = Math.ceil(shape.tasks / 2);
    await withProgress(
      url,
      'bpm_instances',
      instances,
      client.query(INSERT_INSTANCES, [
        instanceBase,
        shape.definitionId,
        shape.definitionKey,
        instances,
      ]),
    );
    await withProgress(
      url,
      'bpm_tasks',
      shape.tasks,
      client.query(INSERT_TASKS, [
        taskBase,
        instanceBase,
        shape.targetUserId,
        shape.targetPending,
        shape.tasks,
      ]),
    );
    for (const table of ['bpm_instances', 'bpm_tasks'])
      await client.query(
        `SELECT setval(pg_get_serial_sequence('${table}', 'id'), (SELECT max(id) FROM ${table}))`,
      );
    process.stderr.write('  ANALYZE\n');
    await client.query('ANALYZE bpm_instances, bpm_tasks');
    const { rows } = await client.query<{ pending: string }>(
      `SELECT count(*) AS pending FROM bpm_tasks WHERE assignee_id = $1 AND status = 'pending'`,
      [shape.targetUserId],
    );
    if (Number(rows[0]!.pending) !== shape.targetPending)
      throw new Error(`the target user has ${rows[0]!.pending} pending tasks`);
  } finally {
    await client.end();
  }
  return (performance.now() - started) / 1000;
}

export interface TableCounts {
  tasks: number;
  pending: number;
  instances: number;
  users: number;
}

export async function tableCounts(url: string): Promise<TableCounts> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<Record<keyof TableCounts, string>>(`
      SELECT (SELECT count(*) FROM bpm_tasks) AS tasks,
             (SELECT count(*) FROM bpm_tasks WHERE status = 'pending') AS pending,
             (SELECT count(*) FROM bpm_instances) AS instances,
             (SELECT count(DISTINCT assignee_id) FROM bpm_tasks) AS users`);
    const r = rows[0]!;
    return {
      tasks: Number(r.tasks),
      pending: Number(r.pending),
      instances: Number(r.instances),
      users: Number(r.users),
    };
  } finally {
    await client.end();
  }
}

/**
 * EXPLAIN (ANALYZE, BUFFERS) of the statements listTodo itself compiles (the page and the
 * count(*)), captured from Kysely with their parameters, so the plan is the one the service gets.
 */
export async function explainTodo(url: string, userId: number, pageSize: number) {
  const captured: CompiledQuery[] = [];
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  const db = new Kysely<BpmTables>({
    dialect: new PostgresDialect({ pool }),
    log: (event) => {
      if (event.level === 'query') captured.push(event.query);
    },
  });
  try {
    await listTodo(db, 1, userId, undefined, { page: 1, pageSize, offset: 0 });
    const plans: Array<{ sql: string; parameters: readonly unknown[]; plan: string }> = [];
    for (const query of captured) {
      const { rows } = await pool.query<{ 'QUERY PLAN': string }>(
        `EXPLAIN (ANALYZE, BUFFERS) ${query.sql}`,
        query.parameters as unknown[],
      );
      plans.push({
        sql: query.sql,
        parameters: query.parameters,
        plan: rows.map((r) => r['QUERY PLAN']).join('\n'),
      });
    }
    return plans;
  } finally {
    await db.destroy();
  }
}

export interface TodoFigures {
  label: string;
  clients: number;
  requests: number;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  errors: number;
}

/**
 * GET /api/v1/bpm/tasks/todo (page 1, `pageSize` rows) for one user: `clients` closed-loop
 * clients for `seconds` after a short warm-up; with one client, requests go one at a time.
 */
export async function measureTodo(
  gateway: string,
  token: string,
  clients: number,
  seconds: number,
  pageSize: number,
  expectedTotal: number,
): Promise<TodoFigures> {
  const api = new Api(gateway, clients);
  const path = `/api/v1/bpm/tasks/todo?page=1&page_size=${pageSize}`;
  const latencies: number[] = [];
  let errors = 0;
  let recording = false;
  let stop = false;
  const client = async () => {
    while (!stop) {
      try {
        const reply = await api.call<{ total: number; list: unknown[] }>('GET', path, token);
        const ok =
          reply.status === 200 &&
          reply.body.data.total === expectedTotal &&
          reply.body.data.list.length === Math.min(pageSize, expectedTotal);
        if (recording) {
          if (ok) latencies.push(reply.ms);
          else errors++;
        }
      } catch {
        if (recording) errors++;
      }
    }
  };
  const running = Array.from({ length: clients }, client);
  await new Promise((resolve) => setTimeout(resolve, Math.min(3, seconds) * 1000));
  recording = true;
  const started = performance.now();
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  recording = false;
  const elapsed = (performance.now() - started) / 1000;
  stop = true;
  await Promise.all(running);
  await api.close();
  return {
    label: clients === 1 ? 'sequential (1 client)' : `${clients} concurrent clients`,
    clients,
    requests: latencies.length,
    rps: latencies.length / elapsed,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    p99: percentile(latencies, 99),
    errors,
  };
}
