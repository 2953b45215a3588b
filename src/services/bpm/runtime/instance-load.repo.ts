import { sql } from 'kysely';
import type { BpmDb } from '../bpm.tables.js';
import type { InstanceRow, TaskRow } from './state.repo.js';

/** Which instance a command or a read is for: by id, or by one of its tasks (never moved). */
export type InstanceRef = { instanceId: number } | { taskId: number };

export interface LoadOptions {
  /** Take the instance's row lock (FOR UPDATE) for a command. */
  lock?: boolean;
  /** Also read the nodes this user reached the instance through (CC copies, acts logged). */
  viewerId?: number | undefined;
}

export interface InstanceRows {
  instance: InstanceRow;
  /** Every task of the instance, by id. */
  tasks: TaskRow[];
  /** The viewer's nodes (see reachedNodesOf), when `viewerId` was given. */
  reached?: string[];
}

/** A task row as `row_to_json` spells it: timestamps as text. */
type TaskJson = Omit<
  TaskRow,
  'created_at' | 'due_at' | 'finished_at' | 'reminded_at' | 'urged_at'
> &
  Record<'created_at', string> &
  Record<'due_at' | 'finished_at' | 'reminded_at' | 'urged_at', string | null>;

const dateOf = (text: string | null) => (text === null ? null : new Date(text));

const taskRowOf = (t: TaskJson): TaskRow => ({
  ...t,
  created_at: new Date(t.created_at),
  due_at: dateOf(t.due_at),
  finished_at: dateOf(t.finished_at),
  reminded_at: dateOf(t.reminded_at),
  urged_at: dateOf(t.urged_at),
});

/**
 * The instance (tenant-scoped) with all its tasks, and the viewer's reached nodes, in one round
 * trip; undefined when there is no such instance (or task) in the tenant.
 *
 * With `lock`, the statement waits for the row lock. Under READ COMMITTED the row it then
 * returns is the newest version (re-fetched after the wait), but the subqueries still read the
 * statement's snapshot, taken before the wait: tasks an earlier command just changed would be
 * missing. Every command updates the instance row, so the row's version (xmin) as locked
 * differing from the version the snapshot saw means exactly that; the statement then runs again,
 * holding the lock, and reads the committed state (as the separate reads after the lock did).
 */
export async function loadInstance(
  db: BpmDb,
  tenantId: number,
  ref: InstanceRef,
  options: LoadOptions = {},
): Promise<InstanceRows | undefined> {
  for (let attempt = 1; ; attempt++) {
    const row = await loadStatement(db, tenantId, ref, options).executeTakeFirst();
    if (!row) return undefined;
    const { tasks, reached, locked_version: locked, seen_version: seen, ...instance } = row;
    if (locked !== seen) {
      // Holding the lock, the second statement's snapshot sees every committed change.
      if (attempt === 1) continue;
      throw new Error(`instance ${instance.id} changed under its row lock`);
    }
    return {
      instance,
      tasks: tasks.map(taskRowOf),
      ...(reached !== null ? { reached } : {}),
    };
  }
}

function loadStatement(db: BpmDb, tenantId: number, ref: InstanceRef, options: LoadOptions) {
  const { lock = false, viewerId } = options;
  const query = db
    .selectFrom('bpm_instances as i')
    .selectAll('i')
    .select(
      sql<TaskJson[]>`coalesce((
        SELECT json_agg(t ORDER BY t.id) FROM bpm_tasks t WHERE t.instance_id = i.id), '[]')`.as(
        'tasks',
      ),
    )
    .select([
      // Unlocked reads compare nothing: both read the same snapshot.
      (lock ? sql<string | null>`i.xmin::text` : sql<string | null>`NULL`).as('locked_version'),
      (lock
        ? sql<string | null>`(SELECT s.xmin::text FROM bpm_instances s WHERE s.id = i.id)`
        : sql<string | null>`NULL`
      ).as('seen_version'),
    ])
    .where('i.tenant_id', '=', tenantId)
    .where('i.id', '=', (eb) =>
      'instanceId' in ref
        ? eb.val(ref.instanceId)
        : eb
            .selectFrom('bpm_tasks')
            .select('instance_id')
            .where('tenant_id', '=', tenantId)
            .where('id', '=', ref.taskId),
    );
  const withViewer = query.select(
    // The same nodes as reachedNodesOf: CC copies addressed to the viewer, nodes they acted on.
    (viewerId === undefined
      ? sql<string[] | null>`NULL`
      : sql<string[] | null>`coalesce((
          SELECT json_agg(r.node_id) FROM (
            SELECT c.node_id FROM bpm_cc c
            WHERE c.tenant_id = i.tenant_id AND c.instance_id = i.id AND c.user_id = ${viewerId}
            UNION
            SELECT l.node_id FROM bpm_logs l
            WHERE l.tenant_id = i.tenant_id AND l.instance_id = i.id
              AND l.operator_id = ${viewerId} AND l.node_id IS NOT NULL) r), '[]')`
    ).as('reached'),
  );
  return (lock ? withViewer.forUpdate('i') : withViewer).$castTo<
    InstanceRow & {
      tasks: TaskJson[];
      reached: string[] | null;
      locked_version: string | null;
      seen_version: string | null;
    }
  >();
}
