/**
 * The approver's and initiator's actions on a request (approve, reject, transfer, …) and the
 * todo list's batch approve: each a mutation hook carrying one `Idempotency-Key` per intended
 * action, refreshing every list and detail once it has landed.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ActionName, FormSchema } from './bpm';
import { api, data } from './client';
import { useIdempotencyKey } from './idempotency';
import { toSubmission } from '../form/rules';

/** What the action dialog collects: the comment, people, and the form's fields by key. */
export interface ActionValues {
  comment?: string;
  to_user_id?: number;
  user_ids?: number[];
  position?: 'parallel' | 'before' | 'after';
  [field: string]: unknown;
}

export interface ActionTarget {
  instanceId: number;
  /** The caller's task the task actions apply to. */
  taskId: number | null;
  /** The form's schema, for a resubmission. */
  schema: FormSchema | null;
  /** The fields the approver may change while approving (a schema of just those), if any. */
  editSchema: FormSchema | null;
}

function send(action: ActionName, target: ActionTarget, v: ActionValues, headers: HeadersInit) {
  const comment = v.comment?.trim() ? v.comment : undefined;
  const task = { params: { path: { id: target.taskId ?? 0 } }, headers };
  const inst = { params: { path: { id: target.instanceId } }, headers };
  switch (action) {
    case 'approve':
      return api.POST('/api/v1/bpm/tasks/{id}/approve', {
        ...task,
        body: {
          comment,
          ...(target.editSchema ? { form: toSubmission(target.editSchema, v) } : {}),
        },
      });
    case 'reject':
      return api.POST('/api/v1/bpm/tasks/{id}/reject', { ...task, body: { comment } });
    case 'transfer':
      return api.POST('/api/v1/bpm/tasks/{id}/transfer', {
        ...task,
        body: { to_user_id: v.to_user_id!, comment },
      });
    case 'delegate':
      return api.POST('/api/v1/bpm/tasks/{id}/delegate', {
        ...task,
        body: { to_user_id: v.to_user_id!, comment },
      });
    case 'add_sign':
      return api.POST('/api/v1/bpm/tasks/{id}/add-sign', {
        ...task,
        body: { user_ids: v.user_ids ?? [], position: v.position ?? 'parallel', comment },
      });
    case 'reduce_sign':
      return api.POST('/api/v1/bpm/tasks/{id}/reduce-sign', {
        ...task,
        body: { user_ids: v.user_ids ?? [], comment },
      });
    case 'withdraw':
      return api.POST('/api/v1/bpm/tasks/{id}/withdraw', { ...task, body: { comment } });
    case 'urge':
      return api.POST('/api/v1/bpm/instances/{id}/urge', { ...inst, body: { comment } });
    case 'return_initiator':
    case 'return_previous':
      return api.POST('/api/v1/bpm/tasks/{id}/return', {
        ...task,
        body: { to: action === 'return_initiator' ? 'initiator' : 'previous', comment },
      });
    case 'resolve':
      return api.POST('/api/v1/bpm/tasks/{id}/resolve', { ...task, body: { comment } });
    case 'cancel':
      return api.POST('/api/v1/bpm/instances/{id}/cancel', { ...inst, body: { comment } });
    case 'terminate':
      return api.POST('/api/v1/bpm/instances/{id}/terminate', { ...inst, body: { comment } });
    case 'resubmit':
      return api.POST('/api/v1/bpm/instances/{id}/resubmit', {
        ...inst,
        body: { form: toSubmission(target.schema ?? { fields: [] }, v) },
      });
  }
}

/** One action on one request; `onSuccess` runs after every list and detail was refreshed. */
export function useTaskAction(
  action: ActionName,
  target: ActionTarget,
  handlers: { onSuccess: () => void; onError: (error: unknown) => void },
) {
  const queryClient = useQueryClient();
  const idempotency = useIdempotencyKey();
  return useMutation({
    mutationFn: async (v: ActionValues) => {
      await send(action, target, v, idempotency.headers());
    },
    onSettled: (_data, error) => idempotency.settled(error ?? undefined),
    onSuccess: async () => {
      await queryClient.invalidateQueries();
      handlers.onSuccess();
    },
    onError: handlers.onError,
  });
}

export interface BatchResult {
  task_id: number;
  ok: boolean;
  code?: number | null;
  message?: string | null;
}
export interface BatchOutcome {
  results: BatchResult[];
  succeeded: number;
  failed: number;
}

/** The most tasks one batch call takes (docs/api.md, `POST /bpm/tasks/batch`). */
export const BATCH_LIMIT = 50;

/**
 * Approves or rejects up to 50 of the caller's tasks in one call; each task goes through its own
 * command and transaction, so the answer lists which were done and why the others were refused.
 */
export function useBatchTaskAction() {
  const queryClient = useQueryClient();
  const idempotency = useIdempotencyKey();
  return useMutation({
    mutationFn: (v: { action: 'approve' | 'reject'; task_ids: number[]; comment?: string }) =>
      data<BatchOutcome>(
        api.POST('/api/v1/bpm/tasks/batch', {
          body: { action: v.action, task_ids: v.task_ids, comment: v.comment?.trim() || undefined },
          headers: idempotency.headers(),
        }),
      ),
    onSettled: async (_data, error) => {
      idempotency.settled(error ?? undefined);
      await queryClient.invalidateQueries();
    },
  });
}
