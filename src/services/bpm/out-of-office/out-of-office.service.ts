import type { Principal } from '../../../platform/auth/principal.js';
import type { BusinessAuditWriter } from '../../../platform/audit/business-audit.js';
import { inTransaction } from '../../../platform/db/transaction.js';
import { AppError, ERROR_CODES, type FieldProblem } from '../../../platform/errors.js';
import type { DirectoryOf } from '../bpm.ports.js';
import type { BpmDb } from '../bpm.tables.js';
import { applyAction } from '../engine/index.js';
import type { InstanceRunner } from '../runtime/runner.js';
import type { AbsenceCache } from './absence-cache.js';
import { openTasksOf } from '../tasks/tasks.repo.js';
import { deleteAbsence, findAbsence, saveAbsence, type AbsenceRow } from './out-of-office.repo.js';
import type { AbsenceInput } from './out-of-office.schema.js';

export interface OutOfOfficeOptions {
  db: BpmDb;
  runner: InstanceRunner;
  directoryOf: DirectoryOf;
  audit: BusinessAuditWriter;
  /** The runner's cached periods, invalidated after every change here. Unset: nothing cached. */
  absences?: AbsenceCache | undefined;
  now?: () => number;
}

function view(row: AbsenceRow, now: number) {
  return {
    user_id: row.user_id,
    stand_in_id: row.stand_in_id,
    from: row.starts_at.toISOString(),
    to: row.ends_at.toISOString(),
    definition_keys: row.definition_keys,
    move_pending: row.move_pending,
    comment: row.comment,
    active: row.starts_at.getTime() <= now && now < row.ends_at.getTime(),
    updated_by: row.updated_by,
    updated_at: row.updated_at.toISOString(),
  };
}

/**
 * Out of office (BPM.md): one period per user, set by the user or, for anyone of the tenant, by
 * a platform admin; both written to the business audit. While it holds, new tasks for the user
 * open for the stand-in (the engine reads the period through the runner's AbsenceBook); with
 * `move_pending`, the open ones move too, each through the command path.
 */
export class OutOfOfficeService {
  private readonly now: () => number;

  constructor(private readonly o: OutOfOfficeOptions) {
    this.now = o.now ?? Date.now;
  }

  /** `userId` is the caller, or anyone of the tenant for a platform admin (else 40301). */
  private async subject(principal: Principal, userId: number) {
    if (userId !== principal.userId && !principal.platformAdmin)
      throw new AppError(
        ERROR_CODES.ACTION_NOT_ALLOWED,
        'only a platform admin sets this for others',
      );
    const [user] = await this.o.directoryOf(principal.tenantId).users([userId]);
    if (!user) throw AppError.notFound('user');
  }

  async get(principal: Principal, userId: number) {
    await this.subject(principal, userId);
    const row = await findAbsence(this.o.db, principal.tenantId, userId);
    return row ? view(row, this.now()) : null;
  }

  async set(principal: Principal, userId: number, input: AbsenceInput) {
    await this.subject(principal, userId);
    const startsAt = new Date(input.from);
    const endsAt = new Date(input.to);
    await this.check(principal, userId, input, startsAt, endsAt);
    const row = await inTransaction(this.o.db, async (trx) => {
      const before = await findAbsence(trx, principal.tenantId, userId);
      const saved = await saveAbsence(
        trx,
        principal.tenantId,
        userId,
        {
          standInId: input.stand_in_id,
          startsAt,
          endsAt,
          definitionKeys: input.definition_keys ?? null,
          movePending: input.move_pending ?? false,
          comment: input.comment ?? null,
        },
        principal.userId,
      );
      await this.audit(trx, principal, userId, 'out_of_office.set', before, saved);
      return saved;
    });
    // Before the open tasks move: the engine moving them must see the new period.
    await this.o.absences?.invalidate(principal.tenantId);
    const now = this.now();
    const started = startsAt.getTime() <= now;
    const moved = row.move_pending && started ? await this.moveOpenTasks(principal, userId) : 0;
    return { ...view(row, now), moved };
  }

  async remove(principal: Principal, userId: number) {
    await this.subject(principal, userId);
    await inTransaction(this.o.db, async (trx) => {
      const gone = await deleteAbsence(trx, principal.tenantId, userId);
      if (gone) await this.audit(trx, principal, userId, 'out_of_office.clear', gone, null);
    });
    await this.o.absences?.invalidate(principal.tenantId);
    return null;
  }

  private async check(
    principal: Principal,
    userId: number,
    input: AbsenceInput,
    startsAt: Date,
    endsAt: Date,
  ) {
    const problems: FieldProblem[] = [];
    const say = (field: string, rule: FieldProblem['rule'], message: string) =>
      problems.push({ field, rule, message });
    if (endsAt.getTime() <= startsAt.getTime()) say('to', 'range', 'to must be after from');
    else if (endsAt.getTime() <= this.now()) say('to', 'range', 'the period has already ended');
    if (input.stand_in_id === userId) say('stand_in_id', 'option', 'nobody stands in for themself');
    else {
      const [standIn] = await this.o.directoryOf(principal.tenantId).users([input.stand_in_id]);
      if (!standIn?.active) say('stand_in_id', 'option', 'the stand-in must be an active user');
    }
    const keys = input.definition_keys ?? [];
    if (keys.length > 0) {
      const known = await this.o.db
        .selectFrom('bpm_definitions')
        .select('key')
        .distinct()
        .where('tenant_id', '=', principal.tenantId)
        .where('key', 'in', keys)
        .execute();
      const found = new Set(known.map((k) => k.key));
      for (const key of keys.filter((k) => !found.has(k)))
        say('definition_keys', 'option', `no definition has the key "${key}"`);
    }
    if (problems.length > 0) throw AppError.validation(problems, problems[0]!.message);
  }

  /** Each open task of the user, through the engine; one that cannot move stays (counted out). */
  private async moveOpenTasks(principal: Principal, userId: number): Promise<number> {
    let moved = 0;
    for (const taskId of await openTasksOf(this.o.db, principal.tenantId, userId)) {
      const instance = await this.o.db
        .selectFrom('bpm_tasks')
        .select('instance_id')
        .where('id', '=', taskId)
        .executeTakeFirstOrThrow();
      const actor = { userId: principal.userId, platformAdmin: principal.platformAdmin };
      try {
        await this.o.runner.act(
          principal.tenantId,
          { instanceId: instance.instance_id },
          { id: principal.userId, name: principal.username },
          (ctx, current) =>
            applyAction(ctx, current.state, { type: 'hand_to_stand_in', taskId }, actor),
          { taskId },
        );
        moved++;
      } catch (err) {
        // Not this definition's absence, the stand-in already on the step, the task moved on.
        if (!(err instanceof AppError)) throw err;
      }
    }
    return moved;
  }

  private audit(
    trx: BpmDb,
    principal: Principal,
    userId: number,
    action: string,
    before: AbsenceRow | undefined | null,
    after: AbsenceRow | null,
  ) {
    const now = this.now();
    return this.o.audit.write(trx as never, {
      tenantId: principal.tenantId,
      actorId: principal.userId,
      actorName: principal.username,
      action,
      targetType: 'user',
      targetIds: [userId],
      before: before ? view(before, now) : null,
      after: after ? view(after, now) : null,
      summary: after
        ? `user ${userId} out of office ${after.starts_at.toISOString()} to ${after.ends_at.toISOString()}, stand-in user ${after.stand_in_id}`
        : `user ${userId} back in office`,
    });
  }
}
