/**
 * A step's deadline (`timeout`) and the initiator's resubmit deadline (`resubmitTimeout`) as the
 * designer edits them and as the server takes them: only what the chosen action uses is kept.
 */
import type { NodeTimeout, ResubmitTimeout } from '../../../api/bpm';

export const TIMEOUT_ACTIONS = ['remind', 'escalate', 'auto_approve', 'auto_reject'] as const;
export const FINAL_ACTIONS = ['stay', 'auto_approve', 'auto_reject'] as const;
export const RESUBMIT_ACTIONS = ['remind', 'cancel'] as const;
/** The server's limits (engine/validate-timeout.ts). */
export const MAX_TIMEOUT_HOURS = 87_600;
export const MAX_REMINDERS = 20;

const positive = (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : undefined;

/**
 * The drawer's values as a node's `timeout`: `repeatEveryHours` for remind (only when it
 * reminds more than once) and escalate, `repeatCount` for remind, `finalAction` for escalate.
 */
export function cleanTimeout(v: Partial<NodeTimeout>): NodeTimeout {
  const action = v.action ?? 'remind';
  const out: NodeTimeout = { hours: Number(v.hours), action };
  const every = positive(v.repeatEveryHours);
  if (action === 'remind') {
    const count = typeof v.repeatCount === 'number' ? Math.round(v.repeatCount) : 1;
    if (count > 1) {
      out.repeatCount = count;
      out.repeatEveryHours = every ?? out.hours;
    }
  }
  if (action === 'escalate') {
    if (every !== undefined) out.repeatEveryHours = every;
    out.finalAction = v.finalAction ?? 'stay';
  }
  return out;
}

export function cleanResubmitTimeout(v: Partial<ResubmitTimeout>): ResubmitTimeout {
  return { hours: Number(v.hours), action: v.action ?? 'remind' };
}

/** A sentence of the designer: an i18n key under `designer.deadline.` and its values. */
export interface Summary {
  key: string;
  params: Record<string, string | number>;
}

/** A deadline in a few words for the node card ("24 h: remind 3 times, every 8 h"). */
export function timeoutSummary(timeout: NodeTimeout | undefined): Summary | null {
  if (!timeout) return null;
  const { hours, action } = timeout;
  if (action === 'remind') {
    const count = timeout.repeatCount ?? 1;
    return count > 1
      ? { key: 'remindRepeat', params: { hours, count, every: timeout.repeatEveryHours ?? hours } }
      : { key: 'remindOnce', params: { hours } };
  }
  if (action === 'escalate')
    return {
      key: 'escalate',
      params: {
        hours,
        every: timeout.repeatEveryHours ?? hours,
        final: timeout.finalAction ?? 'stay',
      },
    };
  return { key: action, params: { hours } };
}

export function resubmitSummary(timeout: ResubmitTimeout | undefined): Summary | null {
  if (!timeout) return null;
  return {
    key: timeout.action === 'cancel' ? 'resubmitCancel' : 'resubmitRemind',
    params: { hours: timeout.hours },
  };
}
