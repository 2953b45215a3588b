/**
 * Publish-time checks of deadlines: an approval node's `timeout` (reminders that repeat,
 * escalation up the department tree) and the start node's `resubmitTimeout`. Each answers the
 * problems found as `[rule, message]`, the message naming the attribute.
 */
import type { FieldProblem } from '../../../platform/errors.js';
import { isPlainObject } from './form.js';

type Rule = FieldProblem['rule'];
type Problem = [Rule, string];

/** Ten years: a due date stays a real timestamp. */
export const MAX_TIMEOUT_HOURS = 87_600;
/** Reminders of one deadline at most (a reminder storm is a misconfiguration). */
export const MAX_REMINDERS = 20;

const NODE_ACTIONS = ['remind', 'escalate', 'auto_approve', 'auto_reject'];
const FINAL_ACTIONS = ['auto_approve', 'auto_reject', 'stay'];

function hoursProblem(value: unknown, name: string, required: boolean): Problem | null {
  if (value === undefined) return required ? ['required', `${name} is required`] : null;
  if (typeof value !== 'number' || !Number.isFinite(value))
    return ['type', `${name} must be a number`];
  if (value <= 0 || value > MAX_TIMEOUT_HOURS)
    return ['range', `${name} must be above 0 and at most ${MAX_TIMEOUT_HOURS}`];
  return null;
}

function oneOf(value: unknown, name: string, allowed: string[]): Problem | null {
  if (value === undefined) return ['required', `${name} is required`];
  if (typeof value !== 'string' || !allowed.includes(value))
    return ['option', `${name} must be one of ${allowed.join(', ')}`];
  return null;
}

/** An approval node's `timeout`. */
export function nodeTimeoutProblems(timeout: unknown): Problem[] {
  if (!isPlainObject(timeout)) return [['type', 'timeout must be {hours, action}']];
  const { action, repeatEveryHours, repeatCount, finalAction } = timeout;
  const problems = [
    hoursProblem(timeout.hours, 'timeout.hours', true),
    oneOf(action, 'timeout.action', NODE_ACTIONS),
    hoursProblem(repeatEveryHours, 'timeout.repeatEveryHours', false),
  ];
  const repeats = action === 'remind' || action === 'escalate';
  if (repeatEveryHours !== undefined && !repeats)
    problems.push(['option', 'timeout.repeatEveryHours is only for remind and escalate']);
  if (repeatCount !== undefined) {
    if (action !== 'remind') problems.push(['option', 'timeout.repeatCount is only for remind']);
    else if (!Number.isSafeInteger(repeatCount))
      problems.push(['type', 'timeout.repeatCount must be an integer']);
    else if ((repeatCount as number) < 1 || (repeatCount as number) > MAX_REMINDERS)
      problems.push(['range', `timeout.repeatCount must be 1 to ${MAX_REMINDERS}`]);
    else if ((repeatCount as number) > 1 && repeatEveryHours === undefined)
      problems.push(['required', 'timeout.repeatEveryHours is required to remind more than once']);
  }
  if (finalAction !== undefined) {
    if (action !== 'escalate')
      problems.push(['option', 'timeout.finalAction is only for escalate']);
    else problems.push(oneOf(finalAction, 'timeout.finalAction', FINAL_ACTIONS));
  }
  return problems.filter((p): p is Problem => p !== null);
}

/** The start node's `resubmitTimeout`. */
export function resubmitTimeoutProblems(timeout: unknown): Problem[] {
  if (!isPlainObject(timeout)) return [['type', 'resubmitTimeout must be {hours, action}']];
  return [
    hoursProblem(timeout.hours, 'resubmitTimeout.hours', true),
    oneOf(timeout.action, 'resubmitTimeout.action', ['remind', 'cancel']),
  ].filter((p): p is Problem => p !== null);
}
