import { sql } from 'kysely';
import type { Logger } from 'pino';
import type { BpmDb } from '../bpm.tables.js';
import { applyAction, SYSTEM_ACTOR, SYSTEM_NAME, SYSTEM_OPERATOR } from '../engine/index.js';
import type { InstanceRunner } from '../runtime/runner.js';

const SYSTEM = { id: SYSTEM_OPERATOR, name: SYSTEM_NAME };

interface DueTask {
  id: number;
  tenant_id: number;
  instance_id: number;
  node_id: string;
}

/**
 * Acts on pending tasks past their `due_at`, as the system (the engine's `timeout` action:
 * remind, escalate, approve or reject; a resubmit task's reminder or cancel). A deadline the
 * engine re-arms (the next reminder, the next level) has a new `due_at` and is claimable again
 * then (state.repo clears `reminded_at`). Each task is claimed
 * inside the instance's transaction (SKIP LOCKED, then `reminded_at` set), so two scanners
 * (replicas) never act twice on one task, and a crash before commit leaves it unclaimed.
 */
export class TimeoutScanner {
  constructor(
    private readonly o: { db: BpmDb; runner: InstanceRunner; logger: Logger; batchSize?: number },
  ) {}

  /** One scan: returns how many tasks it acted on. */
  async runOnce(): Promise<number> {
    const due = await this.o.db
      .selectFrom('bpm_tasks')
      .select(['id', 'tenant_id', 'instance_id', 'node_id'])
      .where('status', '=', 'pending')
      .where('reminded_at', 'is', null)
      .where('due_at', '<=', sql<Date>`now()`)
      .orderBy('due_at')
      .limit(this.o.batchSize ?? 100)
      .execute();
    let acted = 0;
    for (const task of due) {
      try {
        if (await this.handle(task)) acted++;
      } catch (err) {
        // The task moved on meanwhile (approved by its assignee, instance ended): nothing to do.
        this.o.logger.info(
          { task_id: task.id, instance_id: task.instance_id, err: (err as Error).message },
          'timeout action skipped',
        );
      }
    }
    return acted;
  }

  private async handle(task: DueTask): Promise<boolean> {
    // Claimed with FOR UPDATE SKIP LOCKED inside the instance's transaction: a task another
    // scanner (replica) holds is skipped, never waited for, and one already claimed is not due.
    const claim = async (trx: BpmDb) => {
      const free = await trx
        .selectFrom('bpm_tasks')
        .select('id')
        .where('id', '=', task.id)
        .where('status', '=', 'pending')
        .where('reminded_at', 'is', null)
        .forUpdate()
        .skipLocked()
        .executeTakeFirst();
      if (!free) return false;
      await trx
        .updateTable('bpm_tasks')
        .set({ reminded_at: sql<Date>`now()` })
        .where('id', '=', task.id)
        .execute();
      return true;
    };
    // The engine decides what the deadline does (engine/actions-timeout.ts).
    const step = await this.o.runner.act(
      task.tenant_id,
      { instanceId: task.instance_id },
      SYSTEM,
      (ctx, current) =>
        applyAction(ctx, current.state, { type: 'timeout', taskId: task.id }, SYSTEM_ACTOR),
      { guard: claim },
    );
    if (step)
      this.o.logger.info(
        { task_id: task.id, instance_id: task.instance_id },
        'timeout action taken',
      );
    return step !== null;
  }
}
