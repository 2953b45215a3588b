import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { principalOf } from '../../../platform/auth/guard.js';
import { envelopeOf, listOf, ok, pageQuery } from '../../../platform/http/envelope.js';
import { idParams } from '../../../platform/http/params.js';
import type { HttpApp } from '../../../platform/http/server.js';
import type { Action, AddSignPosition, FormData } from '../engine/index.js';
import { callerKeyed } from '../idempotency/caller-keyed.js';
import type { IdempotencyService } from '../idempotency/idempotency.service.js';
import { commentBody } from '../instances/instances.schema.js';
import {
  addSignBody,
  reduceSignBody,
  approveBody,
  batchBody,
  batchView,
  doneQuery,
  rejectBody,
  returnBody,
  taskDetailView,
  taskItemView,
  todoQuery,
  transferBody,
  reassignAllBody,
  reassignAllView,
  handedOverView,
} from './tasks.schema.js';
import type { TasksService } from './tasks.service.js';

const tags = ['bpm'];
const taskDetail = { 200: envelopeOf(taskDetailView) };

/**
 * The union of the task action bodies; each route's own schema has already checked its shape.
 * A `form` is not yet checked against the definition's schema: the service does that. Required
 * comments (reject, return) are the engine's rule (40003), checked in one place.
 */
type ActionBody = {
  comment?: string | null;
  form?: FormData;
  to_user_id: number;
  to: 'initiator' | 'previous';
  user_ids: number[];
  position?: AddSignPosition;
};

export function registerTaskRoutes(
  app: HttpApp,
  tasks: TasksService,
  idempotency: IdempotencyService,
): void {
  const idempotent = callerKeyed(idempotency);
  // After a crash between an action's commit and its answer, a retry gets the task's detail:
  // what the action answers.
  const taskAnswer = (request: FastifyRequest) =>
    tasks.get(principalOf(request), (request.params as { id: number }).id);

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
    '/api/v1/bpm/tasks/handed-over',
    {
      schema: {
        tags,
        summary: 'Tasks the caller transferred or delegated, with their current holder and state',
        querystring: z.object({ ...pageQuery }),
        response: { 200: envelopeOf(listOf(handedOverView)) },
      },
    },
    async (request) => ok(await tasks.handedOver(principalOf(request), request.query)),
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
      {
        ...idempotent(taskAnswer),
        schema: { tags, summary, params: idParams, body, response: taskDetail },
      },
      async (request) => {
        const taskId = request.params.id;
        const action = toAction(taskId, (request.body ?? {}) as ActionBody);
        return ok(await tasks.act(principalOf(request), taskId, action));
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
    comment: b.comment ?? '',
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
    (taskId, b) => ({ type: 'return', taskId, to: b.to, comment: b.comment ?? '' }),
  );
  taskAction(
    'add-sign',
    'Add approvers to this node, in parallel, before or after the caller (not in sequential mode)',
    addSignBody,
    (taskId, b) => ({
      type: 'add_sign',
      taskId,
      userIds: b.user_ids,
      comment: b.comment ?? null,
      position: b.position ?? 'parallel',
    }),
  );
  taskAction(
    'reduce-sign',
    'Remove approvers added by add-sign who have not decided yet',
    reduceSignBody,
    (taskId, b) => ({
      type: 'reduce_sign',
      taskId,
      userIds: b.user_ids,
      comment: b.comment ?? null,
    }),
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
  taskAction(
    'withdraw',
    'Take back your approval while the next node is untouched',
    commentBody,
    (taskId, b) => ({ type: 'withdraw', taskId, comment: b.comment ?? null }),
  );

  app.post(
    '/api/v1/bpm/tasks/:id/reassign',
    {
      ...idempotent(taskAnswer),
      schema: {
        tags,
        summary: 'Move an open task to another active user (platform admin)',
        params: idParams,
        body: transferBody,
        response: taskDetail,
      },
    },
    async (request) =>
      ok(
        await tasks.reassign(
          principalOf(request),
          request.params.id,
          request.body.to_user_id,
          request.body.comment ?? null,
        ),
      ),
  );

  app.post(
    '/api/v1/bpm/admin/reassign',
    {
      ...idempotent(),
      schema: {
        tags,
        summary: "Move every open task of one user to another (platform admin; a leaver's work)",
        body: reassignAllBody,
        response: { 200: envelopeOf(reassignAllView) },
      },
    },
    async (request) => ok(await tasks.reassignAll(principalOf(request), request.body)),
  );

  app.post(
    '/api/v1/bpm/tasks/batch',
    {
      ...idempotent(),
      schema: {
        tags,
        summary: 'Approve or reject up to 50 tasks, each in its own transaction',
        body: batchBody,
        response: { 200: envelopeOf(batchView) },
      },
    },
    async (request) => ok(await tasks.batch(principalOf(request), request.body)),
  );
}
