import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Principal } from '../../../platform/auth/principal.js';
import {
  principalOf,
  requirePermission,
  requirePlatformAdmin,
} from '../../../platform/auth/guard.js';
import { envelopeOf, listOf, ok } from '../../../platform/http/envelope.js';
import { AppError, ERROR_CODES } from '../../../platform/http/errors.js';
import { idParams } from '../../../platform/http/params.js';
import type { HttpApp } from '../../../platform/http/server.js';
import type { Action, FormData } from '../engine/types.js';
import { idempotencyHooks } from '../idempotency/idempotency.hooks.js';
import type { IdempotencyService } from '../idempotency/idempotency.service.js';
import {
  addSignBody,
  approveBody,
  ccQuery,
  ccView,
  commentBody,
  doneQuery,
  instanceDetailView,
  instanceItemView,
  listAllQuery,
  listMyQuery,
  rejectBody,
  resubmitBody,
  returnBody,
  simulateBody,
  startBody,
  taskDetailView,
  taskItemView,
  timelineView,
  todoQuery,
  transferBody,
} from './instances.schema.js';
import type { InstancesService } from './instances.service.js';
import type { SimulationService } from './simulation.service.js';
import type { TasksService } from './tasks.service.js';

const tags = ['bpm'];

/**
 * The union of the action bodies; each route's own schema has already checked its shape. A
 * `form` is not yet checked against the definition's schema: the service does that.
 */
type ActionBody = {
  comment?: string | null;
  form?: FormData;
  to_user_id: number;
  to: 'initiator' | 'previous';
  user_ids: number[];
};
const detail = { 200: envelopeOf(instanceDetailView) };
const taskDetail = { 200: envelopeOf(taskDetailView) };

/** Reject and return need a comment (40003) before anything else is looked at. */
function requireComment(comment: string | null | undefined): string {
  if (!comment || comment.trim() === '') throw new AppError(ERROR_CODES.COMMENT_REQUIRED);
  return comment;
}

/**
 * A task action refused with 40900 (the task is no longer pending, the instance ended) carries
 * the state that won, `{task: {id, status, result}, instance: {id, status}}`, so the loser of a
 * race sees the outcome without another request. Other errors pass through unchanged.
 */
async function conflictWithState(
  tasks: TasksService,
  principal: Principal,
  taskId: number,
  err: unknown,
): Promise<never> {
  if (!(err instanceof AppError) || err.code !== ERROR_CODES.CONFLICT || err.details !== null)
    throw err;
  const current = await tasks.get(principal, taskId).catch(() => undefined);
  if (!current) throw err;
  throw new AppError(ERROR_CODES.CONFLICT, err.message, {
    task: { id: current.id, status: current.status, result: current.result },
    instance: { id: current.instance.id, status: current.instance.status },
  });
}

/** Keys of users are scoped to the caller's tenant and user id. */
const callerScope = (request: FastifyRequest) => {
  const principal = principalOf(request);
  return { tenantId: principal.tenantId, userId: principal.userId };
};

export function registerInstanceRoutes(
  app: HttpApp,
  instances: InstancesService,
  tasks: TasksService,
  simulation: SimulationService,
  idempotency: IdempotencyService,
): void {
  // Start and every action honour Idempotency-Key; the route's own guards run before the key is
  // reserved, so a refused caller never holds one.
  const keyed = idempotencyHooks(idempotency, callerScope);
  const idempotent = (...guards: Array<(request: FastifyRequest) => Promise<void>>) => ({
    preHandler: [...guards, keyed.preHandler],
    onSend: keyed.onSend,
    onResponse: keyed.onResponse,
  });

  app.post(
    '/api/v1/bpm/instances',
    {
      ...idempotent(),
      schema: { tags, summary: 'Start a flow-form instance', body: startBody, response: detail },
    },
    async (request) => ok(await instances.start(principalOf(request), request.body)),
  );
  app.get(
    '/api/v1/bpm/instances/my',
    {
      schema: {
        tags,
        summary: 'Instances the caller started',
        querystring: listMyQuery,
        response: { 200: envelopeOf(listOf(instanceItemView)) },
      },
    },
    async (request) => ok(await instances.my(principalOf(request), request.query)),
  );
  app.get(
    '/api/v1/bpm/instances',
    {
      preHandler: requirePlatformAdmin,
      schema: {
        tags,
        summary: 'All instances of the tenant (platform admin)',
        querystring: listAllQuery,
        response: { 200: envelopeOf(listOf(instanceItemView)) },
      },
    },
    async (request) => ok(await instances.all(principalOf(request), request.query)),
  );
  app.get(
    '/api/v1/bpm/instances/:id',
    {
      schema: {
        tags,
        summary: 'Instance detail (hidden fields removed)',
        params: idParams,
        response: detail,
      },
    },
    async (request) => ok(await instances.detail(principalOf(request), request.params.id)),
  );
  app.get(
    '/api/v1/bpm/instances/:id/timeline',
    {
      schema: {
        tags,
        summary: 'Process log, oldest first (operator 0 = system)',
        params: idParams,
        response: { 200: envelopeOf(z.array(timelineView)) },
      },
    },
    async (request) => ok(await instances.timeline(principalOf(request), request.params.id)),
  );
  app.get(
    '/api/v1/bpm/instances/:id/diagram',
    { schema: { tags, summary: 'Frozen node tree with node states', params: idParams } },
    async (request) => ok(await instances.diagram(principalOf(request), request.params.id)),
  );

  const instanceAction = (
    path: string,
    summary: string,
    body: z.ZodType,
    toAction: (body: ActionBody) => Action,
    admin = false,
  ) =>
    app.post(
      `/api/v1/bpm/instances/:id/${path}`,
      {
        ...(admin ? idempotent(requirePlatformAdmin) : idempotent()),
        schema: { tags, summary, params: idParams, body, response: detail },
      },
      async (request) =>
        ok(
          await instances.act(
            principalOf(request),
            request.params.id,
            toAction((request.body ?? {}) as ActionBody),
          ),
        ),
    );
  instanceAction(
    'cancel',
    'Cancel (initiator, before the first approval acts)',
    commentBody,
    (b) => ({ type: 'cancel', comment: b.comment ?? null }),
  );
  instanceAction('resubmit', 'Resubmit after a return to the initiator', resubmitBody, (b) => ({
    type: 'resubmit',
    form: b.form ?? {},
  }));
  instanceAction(
    'terminate',
    'Force terminate (platform admin; running or suspended)',
    commentBody,
    (b) => ({ type: 'terminate', comment: b.comment ?? null }),
    true,
  );
  instanceAction(
    'resume',
    'Resume a suspended instance, re-evaluating its node (platform admin)',
    commentBody,
    (b) => ({ type: 'resume', comment: b.comment ?? null }),
    true,
  );

  app.get(
    '/api/v1/bpm/tasks/todo',
    {
      schema: {
        tags,
        summary: 'Pending tasks of the caller',
        querystring: todoQuery,
        response: { 200: envelopeOf(listOf(taskItemView)) },
      },
    },
    async (request) => ok(await tasks.todo(principalOf(request), request.query)),
  );
  app.get(
    '/api/v1/bpm/tasks/done',
    {
      schema: {
        tags,
        summary: 'Tasks the caller finished',
        querystring: doneQuery,
        response: { 200: envelopeOf(listOf(taskItemView)) },
      },
    },
    async (request) => ok(await tasks.done(principalOf(request), request.query)),
  );
  app.get(
    '/api/v1/bpm/tasks/:id',
    {
      schema: {
        tags,
        summary: 'Task detail with its instance and the caller\u2019s actions',
        params: idParams,
        response: taskDetail,
      },
    },
    async (request) => ok(await tasks.get(principalOf(request), request.params.id)),
  );
  app.get(
    '/api/v1/bpm/tasks/:id/explain',
    {
      schema: {
        tags,
        summary: 'Why this task\u2019s assignees are who they are',
        params: idParams,
      },
    },
    async (request) => ok(await tasks.explain(principalOf(request), request.params.id)),
  );

  const taskAction = (
    path: string,
    summary: string,
    body: z.ZodType,
    toAction: (id: number, body: ActionBody) => Action,
  ) =>
    app.post(
      `/api/v1/bpm/tasks/:id/${path}`,
      { ...idempotent(), schema: { tags, summary, params: idParams, body, response: taskDetail } },
      async (request) => {
        const principal = principalOf(request);
        const taskId = request.params.id;
        const action = toAction(taskId, (request.body ?? {}) as ActionBody);
        return ok(
          await tasks
            .act(principal, taskId, action)
            .catch((err: unknown) => conflictWithState(tasks, principal, taskId, err)),
        );
      },
    );
  taskAction('approve', 'Approve', approveBody, (taskId, b) => ({
    type: 'approve',
    taskId,
    comment: b.comment ?? null,
    ...(b.form ? { form: b.form } : {}),
  }));
  taskAction('reject', 'Reject (comment required)', rejectBody, (taskId, b) => ({
    type: 'reject',
    taskId,
    comment: requireComment(b.comment),
  }));
  taskAction('transfer', 'Transfer to another user', transferBody, (taskId, b) => ({
    type: 'transfer',
    taskId,
    toUserId: b.to_user_id,
    comment: b.comment ?? null,
  }));
  taskAction(
    'return',
    'Return to the initiator or the previous node (comment required)',
    returnBody,
    (taskId, b) => ({ type: 'return', taskId, to: b.to, comment: requireComment(b.comment) }),
  );
  taskAction(
    'add-sign',
    'Add approvers to this node (not in sequential mode)',
    addSignBody,
    (taskId, b) => ({ type: 'add_sign', taskId, userIds: b.user_ids, comment: b.comment ?? null }),
  );
  taskAction(
    'delegate',
    'Delegate to another user (never yourself)',
    transferBody,
    (taskId, b) => ({
      type: 'delegate',
      taskId,
      toUserId: b.to_user_id,
      comment: b.comment ?? null,
    }),
  );
  taskAction('resolve', 'Hand a delegated task back', commentBody, (taskId, b) => ({
    type: 'resolve',
    taskId,
    comment: b.comment ?? null,
  }));

  app.get(
    '/api/v1/bpm/cc/my',
    {
      schema: {
        tags,
        summary: 'CC records of the caller',
        querystring: ccQuery,
        response: { 200: envelopeOf(listOf(ccView)) },
      },
    },
    async (request) => ok(await tasks.cc(principalOf(request), request.query)),
  );
  app.post(
    '/api/v1/bpm/cc/:id/read',
    {
      schema: {
        tags,
        summary: 'Mark a CC record read (idempotent)',
        params: idParams,
        response: { 200: envelopeOf(ccView) },
      },
    },
    async (request) => ok(await tasks.readCc(principalOf(request), request.params.id)),
  );

  app.post(
    '/api/v1/bpm/definitions/:id/simulate',
    {
      preHandler: requirePermission('bpm:definition:list'),
      schema: {
        tags,
        summary: 'Dry run: the path an instance would take and why (writes nothing)',
        params: idParams,
        body: simulateBody,
      },
    },
    async (request) =>
      ok(await simulation.simulate(principalOf(request), request.params.id, request.body)),
  );
}
