import type { Absence, EngineContext } from './types.js';

/**
 * Out of office: a task the rule gives someone who is away opens for their stand-in, recorded as
 * on behalf of them. Chains are followed (A away → B away → C); the walk stops before a stand-in
 * who cannot take the task (unknown, inactive, or the initiator where the step forbids
 * self-approval), and a cycle (A → B → A) leaves the task with the person the rule named.
 */

export interface StandIn {
  /** Who the rule named. */
  userId: number;
  /** Who gets the task. */
  standInId: number;
  /** The absences followed, in order (the last one names `standInId`). */
  chain: Absence[];
}

export interface StandInOptions {
  initiatorId: number;
  /** The step lets the initiator approve (else the initiator never stands in). */
  allowInitiator: boolean;
}

/** Where a task for `userId` goes: null when they are not away or nobody can stand in. */
export async function standInFor(
  ctx: Pick<EngineContext, 'directory' | 'absences'>,
  userId: number,
  o: StandInOptions,
): Promise<StandIn | null> {
  const seen = new Set([userId]);
  const chain: Absence[] = [];
  let holder = userId;
  for (;;) {
    const away = await ctx.absences.absenceOf(holder);
    if (!away) break;
    const next = away.standInId;
    if (seen.has(next)) return null;
    const [user] = await ctx.directory.users([next]);
    if (!user?.active || (next === o.initiatorId && !o.allowInitiator)) break;
    seen.add(next);
    chain.push(away);
    holder = next;
  }
  return holder === userId ? null : { userId, standInId: holder, chain };
}

export interface Assignment {
  assigneeId: number;
  /** The person away the task is held for, or null. */
  onBehalfOfId: number | null;
}

/**
 * The tasks `userIds` would hold, stand-ins applied, each person once (a stand-in who is already
 * an assignee of the step holds one task, for themselves), with the substitutions made.
 */
export async function withStandIns(
  ctx: Pick<EngineContext, 'directory' | 'absences'>,
  userIds: number[],
  o: StandInOptions,
): Promise<{ assignments: Assignment[]; standIns: StandIn[] }> {
  const assignments: Assignment[] = [];
  const standIns: StandIn[] = [];
  for (const id of userIds) {
    const s = await standInFor(ctx, id, o);
    if (s) standIns.push(s);
    const assigneeId = s?.standInId ?? id;
    if (assignments.some((a) => a.assigneeId === assigneeId)) continue;
    const named = userIds.includes(assigneeId) && assigneeId !== id;
    assignments.push({ assigneeId, onBehalfOfId: s && !named ? id : null });
  }
  return { assignments, standIns };
}

/** The `stand_in` log entry's details. */
export const standInDetails = (s: StandIn): Record<string, unknown> => ({
  user_id: s.userId,
  stand_in_id: s.standInId,
  until: new Date(s.chain[0]!.until).toISOString(),
});
