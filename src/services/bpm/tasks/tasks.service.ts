import type { Principal } from '../../../platform/auth/principal.js';
import { pageResult, parsePage } from '../../../platform/http/envelope.js';
import { toIso } from '../../../platform/http/params.js';
import { AppError, ERROR_CODES } from '../../../platform/errors.js';
import type { BpmDb } from '../bpm.tables.js';
import { applyAction, explainTask, type Action } from '../engine/index.js';
import {
  actorOf,
  hiddenFor,
  operatorOf,
  taskDetail,
  toTaskView,
  type Viewer,
} from '../instances/instance-view.js';
import type { InstancesService } from '../instances/instances.service.js';
import { definitionOf, type InstanceRunner } from '../runtime/runner.js';
import { taskRefOf, type TaskRow } from '../runtime/state.repo.js';
import { editsOfLastApproval, listHandedOver, openTasksOf } from './tasks.repo.js';
import type { SortOrder } from '../../../platform/http/sort.js';
import { listDone, listTodo } from './tasks.repo.js';
import type { DONE_SORT, TODO_SORT } from './tasks.schema.js';
import type { BatchInput, ReassignAllInput } from './tasks.schema.js';
import type { BusinessAuditWriter } from '../../../platform/audit/business-audit.js';

export interface TasksServiceOptions {
  db: BpmDb;
  runner: InstanceRunner;
  instances: InstancesService;
  /** Where administrative acts are recorded (the kernel's business-audit writer). */
  audit: BusinessAuditWriter;
}

type TaskItemRow = Omit<
  TaskRow,
  'tenant_id' | 'seq' | 'added_by_sign' | 'reminded_at' | 'urged_at' | 'timeout_count'
> & {
  instance_title: string;
  definition_key: string;
  initiator_id: number;
};

const toTaskItem = (row: TaskItemRow) => ({
  ...toTaskView(row),
  instance_title: row.instance_title,
  definition_key: row.definition_key,
  initiator_id: row.initiator_id,
});

/** An instance the caller may not see hides its tasks too: 404 task, not 404 instance. */
const asTaskNotFound = (err: unknown) => {
  throw err instanceof AppError && err.code === ERROR_CODES.NOT_FOUND
    ? AppError.notFound('task')
    : err;
};

/** The approver's side: todo and done lists, task detail, "why me", and the task actions. */
export class TasksService {
  constructor(private readonly o: TasksServiceOptions) {}

  async todo(
    principal: Principal,
    query: {
      definition_key?: string | undefined;
      sort?: (typeof TODO_SORT)[number] | undefined;
      order?: SortOrder | undefined;
      page?: string;
      page_size?: string;
    },
  ) {
    const page = parsePage(query);
    const { rows, total } = await listTodo(
      this.o.db,
      principal.tenantId,
      principal.userId,
      query.definition_key,
      page,
      { sort: query.sort, order: query.order },
    );
    return pageResult(rows.map(toTaskItem), total, page);
  }

  async done(
    principal: Principal,
    query: {
      sort?: (typeof DONE_SORT)[number] | undefined;
      order?: SortOrder | undefined;
      page?: string;
      page_size?: string;
    },
  ) {
    const page = parsePage(query);
    const { rows, total } = await listDone(this.o.db, principal.tenantId, principal.userId, page, {
      sort: query.sort,
      order: query.order,
    });
    return pageResult(rows.map(toTaskItem), total, page);
  }

  /** Tasks the caller transferred or delegated, with their current holder and state. */
  async handedOver(principal: Principal, query: { page?: string; page_size?: string }) {
    const page = parsePage(query);
    const { rows, total } = await listHandedOver(
      this.o.db,
      principal.tenantId,
      principal.userId,
      page,
    );
    const items = rows.map((row) => ({
      ...toTaskItem(row),
      handover: row.handover as 'transfer' | 'delegate',
      handed_to_id: row.handed_to_id,
      handed_at: toIso(row.handed_at),
    }));
    return pageResult(items, total, page);
  }

  private async visibleTask(principal: Principal, taskId: number) {
    return this.o.instances.visible(principal, { taskId }).catch(asTaskNotFound);
  }

  async get(principal: Principal, taskId: number) {
    const { loaded, viewer } = await this.visibleTask(principal, taskId);
    return taskDetail(loaded, viewer, taskId, this.o.instances.filesOf(principal));
  }

  /**
   * Why the task's assignees are who they are. A department read from a form field the caller
   * may not see is not revealed: its ids read null.
   */
  async explain(principal: Principal, taskId: number) {
    const { loaded, viewer } = await this.visibleTask(principal, taskId);
    const ctx = this.o.runner.context(this.o.db, loaded.instance.tenant_id, definitionOf(loaded));
    const explained = await explainTask(ctx, loaded.state, taskId);
    const field = explained.resolution?.field;
    if (field === undefined || !hiddenFor(loaded.tree, loaded.state, viewer).includes(field))
      return explained;
    return {
      ...explained,
      resolution: { ...explained.resolution!, deptId: null, leaderDeptId: null },
    };
  }

  /**
   * One task action through the command path; answers the task detail the action produced. A
   * platform admin's reassign is written to the business audit in the same transaction.
   */
  async act(principal: Principal, taskId: number, action: Action) {
    let viewer: Viewer | undefined;
    let command = action;
    // Found by the task under the lock, in the same statement (a task never changes instance).
    const done = await this.o.runner.act(
      principal.tenantId,
      { taskId },
      operatorOf(principal),
      // The engine checks an approver's edits (editableFields) and validates only what was sent.
      (ctx, current) => applyAction(ctx, current.state, command, actorOf(principal)),
      {
        taskId,
        viewerId: principal.userId,
        guard: async (trx, loaded) => {
          viewer = await this.o.instances.viewerOf(trx, principal, loaded).catch(asTaskNotFound);
          // A withdrawal reverts the form edits its approval made: read them under the lock.
          const task = loaded.state.tasks.find((t) => t.id === taskId);
          if (command.type === 'withdraw' && task) {
            const edits = await editsOfLastApproval(
              trx,
              loaded.instance.id,
              task,
              principal.userId,
            );
            command = { ...command, edits };
          }
          return true;
        },
        afterPersist:
          action.type === 'reassign'
            ? (trx, before) =>
                this.o.audit.write(trx as never, {
                  tenantId: principal.tenantId,
                  actorId: principal.userId,
                  actorName: principal.username,
                  action: 'reassign',
                  targetType: 'task',
                  targetIds: [taskId],
                  before: { assignee_id: action.fromUserId },
                  after: { assignee_id: action.toUserId },
                  summary: `reassigned task ${taskId} of instance ${before.id} (${before.title}) from user ${action.fromUserId} to user ${action.toUserId}`,
                })
            : undefined,
      },
    );
    return taskDetail(done!, viewer!, taskId, this.o.instances.filesOf(principal));
  }

  /** A platform admin moves one open task to another active user. */
  async reassign(principal: Principal, taskId: number, toUserId: number, comment: string | null) {
    if (!principal.platformAdmin) {
      throw new AppError(ERROR_CODES.ACTION_NOT_ALLOWED, 'only a platform admin reassigns');
    }
    const ref = await taskRefOf(this.o.db, principal.tenantId, taskId);
    if (ref === undefined) throw AppError.notFound('task');
    return this.act(principal, taskId, {
      type: 'reassign',
      taskId,
      toUserId,
      comment,
      fromUserId: ref.assignee_id,
    });
  }

  /**
   * Every open approval task of one user moves to another, each through the command path in its
   * own transaction (a leaver's work); a task the new holder may not take stays, listed.
   */
  async reassignAll(principal: Principal, input: ReassignAllInput) {
    if (!principal.platformAdmin) {
      throw new AppError(ERROR_CODES.ACTION_NOT_ALLOWED, 'only a platform admin reassigns');
    }
    if (input.from_user_id === input.to_user_id) {
      const message = 'the tasks are already theirs';
      throw AppError.validation([{ field: 'to_user_id', rule: 'option', message }], message);
    }
    const comment = input.comment ?? null;
    let reassigned = 0;
    const skipped = [];
    for (const taskId of await openTasksOf(this.o.db, principal.tenantId, input.from_user_id)) {
      try {
        await this.act(principal, taskId, {
          type: 'reassign',
          taskId,
          fromUserId: input.from_user_id,
          toUserId: input.to_user_id,
          comment,
        });
        reassigned += 1;
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        skipped.push({ task_id: taskId, code: err.code, message: err.message });
      }
    }
    return { reassigned, skipped };
  }

  /**
   * Approve or reject each task in turn, each through the command path in its own transaction,
   * so one refusal leaves the others done; the answer lists each outcome in the order asked.
   */
  async batch(principal: Principal, input: BatchInput) {
    const results = [];
    for (const taskId of [...new Set(input.task_ids)]) {
      const action: Action =
        input.action === 'approve'
          ? { type: 'approve', taskId, comment: input.comment ?? null }
          : { type: 'reject', taskId, comment: input.comment ?? '' };
      try {
        const done = await this.act(principal, taskId, action);
        results.push({
          task_id: taskId,
          ok: true,
          status: done.status,
          result: done.result,
          instance_status: done.instance.status,
          code: null,
          message: null,
        });
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        const { code, message } = err;
        results.push({
          task_id: taskId,
          ok: false,
          status: null,
          result: null,
          instance_status: null,
          code,
          message,
        });
      }
    }
    const succeeded = results.filter((r) => r.ok).length;
    return { results, succeeded, failed: results.length - succeeded };
  }
}
