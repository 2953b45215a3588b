import { randomUUID } from 'node:crypto';
import type { BpmDb } from '../bpm.tables.js';
import type { Effect, NotificationKind } from '../engine/types.js';
import type { InstanceRow } from './instances.repo.js';

/** Where notifications go; unset means they are skipped silently (the spec's rule). */
export interface NotifyTarget {
  enabled: boolean;
}

const TEMPLATES: Record<NotificationKind, (title: string) => { title: string; body: string }> = {
  todo: (t) => ({ title: 'Approval needed', body: `"${t}" is waiting for your approval.` }),
  cc: (t) => ({ title: 'For your information', body: `You were copied on "${t}".` }),
  timeout: (t) => ({ title: 'Approval overdue', body: `"${t}" has waited past its deadline.` }),
  terminal: (t) => ({ title: 'Approval finished', body: `"${t}" has finished.` }),
};

/** Flow-form anchors are generated (`flow:<key>`); anything else is a business back end's. */
export const isBusinessInstance = (instance: Pick<InstanceRow, 'biz_type'>) =>
  !instance.biz_type.startsWith('flow:');

/**
 * Writes the engine's effects in the caller's transaction: the process log, CC records,
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
          operator_name: entry.operatorId === 0 ? 'system' : operator.name,
          comment: entry.comment,
          round: entry.round,
        })),
      )
      .execute();
  }
  for (const effect of effects) {
    switch (effect.type) {
      case 'cc':
        if (effect.userIds.length > 0) {
          await db
            .insertInto('bpm_cc')
            .values(
              effect.userIds.map((userId) => ({
                tenant_id: tenantId,
                instance_id: instance.id,
                node_id: effect.nodeId,
                user_id: userId,
                read: false,
              })),
            )
            .execute();
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
      case 'notify':
        if (notify.enabled && effect.userIds.length > 0) {
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
                user_ids: effect.userIds,
                instance_id: instance.id,
                node_id: effect.nodeId,
                ...TEMPLATES[effect.kind](instance.title),
              }),
            })
            .execute();
        }
        break;
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
                finished_at: new Date().toISOString(),
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
