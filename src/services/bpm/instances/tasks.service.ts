import type { Principal } from '../../../platform/auth/principal.js';
import { pageResult, parsePage } from '../../../platform/http/envelope.js';
import { AppError, ERROR_CODES } from '../../../platform/http/errors.js';
import { toIso, toIsoOrNull } from '../../../platform/http/params.js';
import type { BpmDb } from '../bpm.tables.js';
import { applyAction } from '../engine/actions.js';
import { availableActions } from '../engine/available.js';
import { explainTask } from '../engine/simulate.js';
import type { Action } from '../engine/types.js';
import { instanceIdOfTask, type TaskRow } from './instances.repo.js';
import {
  actorOf,
  formProblems,
  operatorOf,
  toTaskView,
  type InstancesService,
} from './instances.service.js';
import { listCc, listDone, listTodo, markCcRead } from './queries.repo.js';
import type { InstanceRunner } from './runner.js';

export interface TasksServiceOptions {
  db: BpmDb;
  runner: InstanceRunner;
  instances: InstancesService;
}

type TaskItemRow = Omit<TaskRow, 'tenant_id' | 'seq' | 'added_by_sign' | 'reminded_at'> & {
  instance_title: string;
  definition_key: string;
  initiator_id: number;
};

const toTaskItem = (row: TaskItemRow) => ({
  ...toTaskView({ ...row, tenant_id: 0, seq: 0, added_by_sign: false, reminded_at: null }),
  instance_title: row.instance_title,
  definition_key: row.definition_key,
  initiator_id: row.initiator_id,
});

/** The approver's side: todo and done lists, task detail, "why me", and the task actions. */
export class TasksService {
  constructor(private readonly o: TasksServiceOptions) {}

  async todo(
    principal: Principal,
    query: { definition_key?: string | undefined; page?: string; page_size?: string },
  ) {
    const page = parsePage(query);
    const { rows, total } = await listTodo(
      this.o.db,
      principal.tenantId,
      principal.userId,
      query.definition_key,
      page,
    );
    return pageResult(rows.map(toTaskItem), total, page);
  }

  async done(principal: Principal, query: { page?: string; page_size?: string }) {
    const page = parsePage(query);
    const { rows, total } = await listDone(this.o.db, principal.tenantId, principal.userId, page);
    return pageResult(rows.map(toTaskItem), total, page);
  }

  private async instanceOfTask(principal: Principal, taskId: number) {
    const instanceId = await instanceIdOfTask(this.o.db, principal.tenantId, taskId);
    if (instanceId === undefined) throw AppError.notFound('task');
    return this.o.instances.visible(principal, instanceId).catch((err: unknown) => {
      throw err instanceof AppError && err.code === ERROR_CODES.NOT_FOUND
        ? AppError.notFound('task')
        : err;
    });
  }

  async get(principal: Principal, taskId: number) {
    const { instance, state, tree } = await this.instanceOfTask(principal, taskId);
    const detail = await this.o.instances.detailOf(instance, state, tree, actorOf(principal));
    const task = detail.tasks.find((t) => t.id === taskId)!;
    return {
      ...task,
      instance: detail,
      actions: availableActions(tree, state, actorOf(principal), taskId),
    };
  }

  async explain(principal: Principal, taskId: number) {
    const { instance, state, tree } = await this.instanceOfTask(principal, taskId);
    const ctx = this.o.runner.context(this.o.db, instance.tenant_id, tree, { fields: [] });
    return explainTask(ctx, state, taskId);
  }

  /** One task action on the locked instance; returns the task detail after it. */
  async act(principal: Principal, taskId: number, action: Action) {
    const { instance } = await this.instanceOfTask(principal, taskId);
    await this.o.runner.act(
      principal.tenantId,
      instance.id,
      operatorOf(principal),
      (ctx, current) => {
        const checked =
          action.type === 'approve' && action.form !== undefined
            ? {
                ...action,
                form: formProblems(current.schema, { ...current.state.form, ...action.form }),
              }
            : action;
        return applyAction(ctx, current.state, checked, actorOf(principal));
      },
    );
    return this.get(principal, taskId);
  }

  async cc(
    principal: Principal,
    query: { unread?: 'true' | 'false' | undefined; page?: string; page_size?: string },
  ) {
    const page = parsePage(query);
    const { rows, total } = await listCc(
      this.o.db,
      principal.tenantId,
      principal.userId,
      query.unread === 'true',
      page,
    );
    return pageResult(rows.map(ccView), total, page);
  }

  async readCc(principal: Principal, id: number) {
    const row = await markCcRead(this.o.db, principal.tenantId, principal.userId, id);
    if (!row) throw AppError.notFound('cc record');
    return ccView(row);
  }
}

function ccView(row: {
  id: number;
  instance_id: number;
  node_id: string;
  read: boolean;
  read_at: Date | null;
  created_at: Date;
  instance_title: string;
}) {
  return { ...row, read_at: toIsoOrNull(row.read_at), created_at: toIso(row.created_at) };
}
