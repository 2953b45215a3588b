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

/** A process log row of the command (the instance and tenant are the command's). */
export interface PlannedLog {
  node_id: string | null;
  node_name: string | null;
  action: string;
  operator_id: number;
  operator_name: string;
  comment: string | null;
  round: number;
  details: Record<string, unknown> | null;
}

/** An outbox row of the command: a notice (inbox, notification) or the terminal callback. */
export interface PlannedNotice {
  kind: 'inbox' | 'notification' | 'callback';
  event_id: string;
  target: string;
  payload: Record<string, unknown>;
  /**
   * The callback's `finished_at` is the instance's finish time as stored, which the same
   * statement writes (`now()`): the statement adds it.
   */
  stamp_finished_at: boolean;
}

export interface PlannedEffects {
  logs: PlannedLog[];
  /** In the order of the effects, so their ids are too. */
  notices: PlannedNotice[];
}

/**
 * The log and outbox rows of the engine's effects, written with the new state in one statement
 * (writeCommand), so an announced state and its announcement commit or roll back together.
 * `instance` is the row as loaded (title and anchor never change); `copiedBefore` holds the
 * `node:user` pairs whose CC copy of this round existed already (writeCopies): their notice is
 * not sent again.
 */
export function planEffects(
  instance: InstanceRow,
  effects: Effect[],
  operator: { id: number; name: string },
  notify: NotifyTarget,
  copiedBefore: ReadonlySet<string>,
): PlannedEffects {
  const tenantId = instance.tenant_id;
  const logs: PlannedLog[] = effects.flatMap((e) =>
    e.type === 'log'
      ? [
          {
            node_id: e.entry.nodeId,
            node_name: e.entry.nodeName,
            action: e.entry.action,
            operator_id: e.entry.operatorId,
            operator_name: e.entry.operatorId === SYSTEM_OPERATOR ? SYSTEM_NAME : operator.name,
            comment: e.entry.comment,
            round: e.entry.round,
            details: e.entry.details ?? null,
          },
        ]
      : [],
  );
  const notices: PlannedNotice[] = [];
  const notice = (kind: PlannedNotice['kind'], target: string, payload: (id: string) => object) => {
    const eventId = randomUUID();
    notices.push({
      kind,
      event_id: eventId,
      target,
      payload: payload(eventId) as Record<string, unknown>,
      stamp_finished_at: kind === 'callback',
    });
  };
  for (const effect of effects) {
    if (effect.type === 'notify') {
      // A CC copy this round already had was not written again; nor is its notice sent again.
      const userIds =
        effect.kind === 'cc'
          ? effect.userIds.filter((id) => !copiedBefore.has(`${effect.nodeId}:${id}`))
          : effect.userIds;
      if (userIds.length === 0) continue;
      const text = notificationText(effect.kind, instance.title);
      if (notify.inbox) {
        notice('inbox', effect.kind, () => ({
          kind: effect.kind,
          tenant_id: tenantId,
          user_ids: userIds,
          instance_id: instance.id,
          instance_title: instance.title,
          ...text,
        }));
      }
      if (notify.enabled) {
        notice('notification', effect.kind, (eventId) => ({
          event_id: eventId,
          kind: effect.kind,
          tenant_id: tenantId,
          user_ids: userIds,
          instance_id: instance.id,
          instance_title: instance.title,
          node_id: effect.nodeId,
          ...text,
        }));
      }
    } else if (effect.type === 'terminal' && isBusinessInstance(instance)) {
      notice('callback', instance.biz_type, (eventId) => ({
        event: 'bpm.instance.finished',
        event_id: eventId,
        tenant_id: tenantId,
        instance_id: instance.id,
        definition_key: instance.definition_key,
        definition_version: instance.definition_version,
        biz_type: instance.biz_type,
        biz_id: instance.biz_id,
        status: effect.status,
      }));
    }
  }
  return { logs, notices };
}

/**
 * The CC records of the effects (before writeCommand, whose notices depend on them): answers
 * the `node:user` pairs whose copy of this round existed already.
 */
export async function writeCopies(
  db: BpmDb,
  instance: InstanceRow,
  effects: Effect[],
): Promise<Set<string>> {
  const copiedBefore = new Set<string>();
  for (const effect of effects) {
    if (effect.type !== 'cc' || effect.userIds.length === 0) continue;
    const copied = await db
      .insertInto('bpm_cc')
      .values(
        effect.userIds.map((userId) => ({
          tenant_id: instance.tenant_id,
          instance_id: instance.id,
          node_id: effect.nodeId,
          user_id: userId,
          round: effect.round,
          read: false,
        })),
      )
      .onConflict((oc) => oc.columns(['instance_id', 'node_id', 'user_id', 'round']).doNothing())
      .returning('user_id')
      .execute();
    const fresh = new Set(copied.map((r) => r.user_id));
    for (const userId of effect.userIds) {
      if (!fresh.has(userId)) copiedBefore.add(`${effect.nodeId}:${userId}`);
    }
  }
  return copiedBefore;
}

/** The delegation records of the effects (after writeCommand: `taskIds` maps new tasks' ids). */
export async function writeDelegations(
  db: BpmDb,
  tenantId: number,
  effects: Effect[],
  taskIds: Map<number, number>,
): Promise<void> {
  for (const effect of effects) {
    if (effect.type === 'delegation') {
      await db
        .insertInto('bpm_delegations')
        .values({
          tenant_id: tenantId,
          task_id: taskIds.get(effect.taskId) ?? effect.taskId,
          from_user_id: effect.fromUserId,
          to_user_id: effect.toUserId,
        })
        .execute();
    } else if (effect.type === 'delegation_resolved') {
      await db
        .updateTable('bpm_delegations')
        .set({ resolved_at: sql<Date>`now()` })
        .where('tenant_id', '=', tenantId)
        .where('task_id', '=', taskIds.get(effect.taskId) ?? effect.taskId)
        .where('resolved_at', 'is', null)
        .execute();
    }
  }
}
