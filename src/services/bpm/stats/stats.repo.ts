import { sql } from 'kysely';
import type { BpmDb, BpmTables } from '../bpm.tables.js';
import { TERMINAL_STATUSES } from '../engine/index.js';

// Aggregations behind GET /api/v1/bpm/stats; every one filters by tenant in SQL. Plain
// PostgreSQL that PGlite (17) and PostgreSQL 15 both run.

type InstanceStatus = BpmTables['bpm_instances']['status'];

const TERMINAL = sql`(${sql.join([...TERMINAL_STATUSES])})`;

export function countInstancesByStatus(db: BpmDb, tenantId: number) {
  return db
    .selectFrom('bpm_instances')
    .select(['status', sql<number>`count(*)::int`.as('n')])
    .where('tenant_id', '=', tenantId)
    .groupBy('status')
    .execute() as Promise<Array<{ status: InstanceStatus; n: number }>>;
}

/**
 * Instances started and finished on each of the `days` UTC days ending with `today`
 * (YYYY-MM-DD), oldest first; days without any are 0.
 */
export async function dailyStartsAndFinishes(
  db: BpmDb,
  tenantId: number,
  today: string,
  days: number,
) {
  const { rows } = await sql<{ date: string; started: number; finished: number }>`
    WITH days AS (
      SELECT ${today}::date - g.n AS day FROM generate_series(0, ${days - 1}::int) AS g (n)
    ),
    window_start AS (
      SELECT (min(day)::timestamp AT TIME ZONE 'UTC') AS at FROM days
    ),
    started AS (
      SELECT (created_at AT TIME ZONE 'UTC')::date AS day, count(*) AS n
      FROM bpm_instances
      WHERE tenant_id = ${tenantId} AND created_at >= (SELECT at FROM window_start)
      GROUP BY 1
    ),
    finished AS (
      SELECT (finished_at AT TIME ZONE 'UTC')::date AS day, count(*) AS n
      FROM bpm_instances
      WHERE tenant_id = ${tenantId} AND finished_at >= (SELECT at FROM window_start)
      GROUP BY 1
    )
    SELECT to_char(d.day, 'YYYY-MM-DD') AS date,
           coalesce(s.n, 0)::int AS started,
           coalesce(f.n, 0)::int AS finished
    FROM days d
    LEFT JOIN started s ON s.day = d.day
    LEFT JOIN finished f ON f.day = d.day
    ORDER BY d.day`.execute(db);
  return rows;
}

/**
 * Approval decisions taken since `since` (approval tasks done, by approvers or by the engine's
 * automatic rules), split by outcome; resubmissions are the initiator's, not decisions.
 */
export async function decisionsSince(db: BpmDb, tenantId: number, since: Date) {
  const { rows } = await sql<{ approved: number; rejected: number }>`
    SELECT count(*) FILTER (WHERE result IN ('approved', 'auto_approved'))::int AS approved,
           count(*) FILTER (WHERE result IN ('rejected', 'auto_rejected'))::int AS rejected
    FROM bpm_tasks
    WHERE tenant_id = ${tenantId} AND kind = 'approval' AND status = 'done'
      AND finished_at >= ${since}`.execute(db);
  return rows[0] ?? { approved: 0, rejected: 0 };
}

/**
 * Per definition key: instances in a terminal status, how many of them approved, and their mean
 * start-to-finish time in milliseconds (null when none finished).
 */
export async function outcomesByDefinition(db: BpmDb, tenantId: number) {
  const { rows } = await sql<{
    definition_key: string;
    finished: number;
    approved: number;
    avg_duration_ms: number | null;
  }>`
    SELECT definition_key,
           count(*) FILTER (WHERE status IN ${TERMINAL})::int AS finished,
           count(*) FILTER (WHERE status = 'approved')::int AS approved,
           round(avg(extract(epoch FROM finished_at - created_at) * 1000)
             FILTER (WHERE status IN ${TERMINAL} AND finished_at IS NOT NULL))::float8
             AS avg_duration_ms
    FROM bpm_instances
    WHERE tenant_id = ${tenantId}
    GROUP BY definition_key
    ORDER BY definition_key`.execute(db);
  return rows;
}

/**
 * The approval nodes (per definition key and node id) with the longest mean time from task
 * creation to completion over their done tasks, with the tasks pending there now. Resubmit
 * tasks wait on the initiator, not on an approver, and are left out.
 */
export async function slowestNodes(db: BpmDb, tenantId: number, limit: number) {
  const { rows } = await sql<{
    definition_key: string;
    node_id: string;
    node_name: string;
    avg_duration_ms: number;
    pending: number;
  }>`
    SELECT i.definition_key,
           t.node_id,
           (array_agg(t.node_name ORDER BY t.id DESC))[1] AS node_name,
           round(avg(extract(epoch FROM t.finished_at - t.created_at) * 1000)
             FILTER (WHERE t.status = 'done' AND t.finished_at IS NOT NULL))::float8
             AS avg_duration_ms,
           count(*) FILTER (WHERE t.status = 'pending')::int AS pending
    FROM bpm_tasks t
    JOIN bpm_instances i ON i.id = t.instance_id
    WHERE t.tenant_id = ${tenantId}
      AND i.tenant_id = ${tenantId}
      AND t.kind = 'approval'
      AND t.status IN ('done', 'pending')
    GROUP BY i.definition_key, t.node_id
    HAVING count(*) FILTER (WHERE t.status = 'done' AND t.finished_at IS NOT NULL) > 0
    ORDER BY avg_duration_ms DESC, i.definition_key, t.node_id
    LIMIT ${limit}`.execute(db);
  return rows;
}
