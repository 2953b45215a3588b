import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { BpmDb } from '../bpm.tables.js';
import { SYSTEM_NAME, SYSTEM_OPERATOR, type Effect } from '../engine/index.js';
import { notificationText } from './notification-templates.js';
import type { InstanceRow } from './state.repo.js';

/** Where notifications go; unset means they are skipped silently (the spec's rule). */
export interface NotifyTarget {
  enabled: boolean;
  /** Whether an inbox takes a copy of every notice (enqueued whether or not `enabled`). */
  inbox?: boolean | undefined;
}

/** Flow-form anchors are generated (`flow:<key>`); anything else is a business back end's. */
export const isBusinessInstance = (instance: Pick<InstanceRow, 'biz_type'>) =>
  !instance.biz_type.startsWith('flow:');

/**
 * Writes the engine's effects in the caller's transaction (`instance` is the row as just saved): the process log, CC records,
 * delegation records, and outbox rows for notifications and the terminal callback, so an
 * announced state and its announcement commit or roll back together.
 */
export async function writeEffects(
  db: BpmDb,
  instance: InstanceRow,
  effects: Effect[],
  operator: { id: number; name: string },
  notify: NotifyTarget,
  taskIds: Map<number, number>,
): Promise<void> {
  const tenantId = instance.tenant_id;
  /** `node:user` pairs whose CC copy of this round existed already. */
  const copiedBefore = new Set<string>();
  const logs = effects.flatMap((e) => (e.type === 'log' ? [e.entry] : []));
  if (logs.length > 0) {
    await db
      .insertInto('bpm_logs')
      .values(
        logs.map((entry) => ({
          tenant_id: tenantId,
          instance_id: instance.id,
          node_id: entry.nodeId,
          node_name: entry.nodeName,
          action: entry.action,
          operator_id: entry.operatorId,
          operator_name: entry.operatorId === SYSTEM_OPERATOR ? SYSTEM_NAME : operator.name,
          comment: entry.comment,
          round: entry.round,
          details: entry.details ? JSON.stringify(entry.details) : null,
        })),
      )
      .execute();
  }
  for (const effect of effects) {
    switch (effect.type) {
      case 'cc':
        if (effect.userIds.length > 0) {
          const copied = await db
            .insertInto('bpm_cc')
            .values(
              effect.userIds.map((userId) => ({
                tenant_id: tenantId,
                instance_id: instance.id,
                node_id: effect.nodeId,
                user_id: userId,
                round: effect.round,
                read: false,
              })),
            )
            .onConflict((oc) =>
              oc.columns(['instance_id', 'node_id', 'user_id', 'round']).doNothing(),
            )
            .returning('user_id')
            .execute();
          const fresh = new Set(copied.map((r) => r.user_id));
          for (const userId of effect.userIds) {
            if (!fresh.has(userId)) copiedBefore.add(`${effect.nodeId}:${userId}`);
          }
        }
        break;
      case 'delegation':
        await db
          .insertInto('bpm_delegations')
          .values({
            tenant_id: tenantId,
            task_id: taskIds.get(effect.taskId) ?? effect.taskId,
            from_user_id: effect.fromUserId,
            to_user_id: effect.toUserId,
          })
          .execute();
        break;
      case 'delegation_resolved':
        await db
          .updateTable('bpm_delegations')
          .set({ resolved_at: sql<Date>`now()` })
          .where('tenant_id', '=', tenantId)
          .where('task_id', '=', taskIds.get(effect.taskId) ?? effect.taskId)
          .where('resolved_at', 'is', null)
          .execute();
        break;
      case 'notify': {
        // A CC copy this round already had was not written again; nor is its notice sent again.
        const userIds =
          effect.kind === 'cc'
            ? effect.userIds.filter((id) => !copiedBefore.has(`${effect.nodeId}:${id}`))
            : effect.userIds;
        if (notify.inbox && userIds.length > 0) {
          const eventId = randomUUID();
          await db
            .insertInto('bpm_outbox')
            .values({
              tenant_id: tenantId,
              kind: 'inbox',
              event_id: eventId,
              target: effect.kind,
              payload: JSON.stringify({
                kind: effect.kind,
                tenant_id: tenantId,
                user_ids: userIds,
                instance_id: instance.id,
                instance_title: instance.title,
                ...notificationText(effect.kind, instance.title),
              }),
            })
            .execute();
        }
        if (notify.enabled && userIds.length > 0) {
          const eventId = randomUUID();
          await db
            .insertInto('bpm_outbox')
            .values({
              tenant_id: tenantId,
              kind: 'notification',
              event_id: eventId,
              target: effect.kind,
              payload: JSON.stringify({
                event_id: eventId,
                kind: effect.kind,
                tenant_id: tenantId,
                user_ids: userIds,
                instance_id: instance.id,
                instance_title: instance.title,
                node_id: effect.nodeId,
                ...notificationText(effect.kind, instance.title),
              }),
            })
            .execute();
        }
        break;
      }
      case 'terminal':
        if (isBusinessInstance(instance)) {
          const eventId = randomUUID();
          await db
            .insertInto('bpm_outbox')
            .values({
              tenant_id: tenantId,
              kind: 'callback',
              event_id: eventId,
              target: instance.biz_type,
              payload: JSON.stringify({
                event: 'bpm.instance.finished',
                event_id: eventId,
                tenant_id: tenantId,
                instance_id: instance.id,
                definition_key: instance.definition_key,
                definition_version: instance.definition_version,
                biz_type: instance.biz_type,
                biz_id: instance.biz_id,
                status: effect.status,
                // The instance's own finish time, as stored (not the clock of this process).
                finished_at: (instance.finished_at ?? new Date()).toISOString(),
              }),
            })
            .execute();
        }
        break;
      case 'log':
        break;
    }
  }
}
