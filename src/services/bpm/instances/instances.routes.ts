import { z } from 'zod';
import { principalOf, requirePlatformAdmin } from '../../../platform/auth/guard.js';
import { envelopeOf, listOf, ok } from '../../../platform/http/envelope.js';
import { idParams } from '../../../platform/http/params.js';
import type { HttpApp } from '../../../platform/http/server.js';
import type { Action, FormData } from '../engine/index.js';
import { callerKeyed } from '../idempotency/caller-keyed.js';
import type { IdempotencyService } from '../idempotency/idempotency.service.js';
import {
  commentBody,
  instanceDetailView,
  instanceItemView,
  listAllQuery,
  listMyQuery,
  resubmitBody,
  resumeBody,
  startBody,
  timelineView,
} from './instances.schema.js';
import type { InstancesService } from './instances.service.js';

const tags = ['bpm'];
const detail = { 200: envelopeOf(instanceDetailView) };

/** The union of the instance action bodies; each route's own schema has checked its shape. */
type InstanceActionBody = {
  comment?: string | null;
  form?: FormData;
  form_patch?: Record<string, unknown>;
  assignee_ids?: number[];
  branch_id?: string;
};

export function registerInstanceRoutes(
  app: HttpApp,
  instances: InstancesService,
  idempotency: IdempotencyService,
): void {
  const idempotent = callerKeyed(idempotency);

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

  // Who may act (initiator, platform admin) is the engine's rule, checked in one place.
  const instanceAction = (
    path: string,
    summary: string,
    body: z.ZodType,
    toAction: (body: InstanceActionBody) => Action,
  ) =>
    app.post(
      `/api/v1/bpm/instances/:id/${path}`,
      {
        // After a crash between the action's commit and its answer: the instance's detail.
        ...idempotent((request) =>
          instances.detail(principalOf(request), (request.params as { id: number }).id),
        ),
        schema: { tags, summary, params: idParams, body, response: detail },
      },
      async (request) =>
        ok(
          await instances.act(
            principalOf(request),
            request.params.id,
            toAction((request.body ?? {}) as InstanceActionBody),
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
  );
  instanceAction(
    'urge',
    'Remind the current approvers (initiator; at most once an hour per task)',
    commentBody,
    (b) => ({ type: 'urge', comment: b.comment ?? null }),
  );
  instanceAction(
    'resume',
    'Resume a suspended instance, repaired (form_patch, assignee_ids, branch_id) or re-evaluated (platform admin)',
    resumeBody,
    (b) => ({
      type: 'resume',
      comment: b.comment ?? null,
      ...(b.form_patch ? { formPatch: b.form_patch } : {}),
      ...(b.assignee_ids ? { assigneeIds: b.assignee_ids } : {}),
      ...(b.branch_id !== undefined ? { branchId: b.branch_id } : {}),
    }),
  );
}
