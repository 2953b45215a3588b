import type { NotificationKind } from '../engine/index.js';

/** The text of each notification kind, filled with the instance title. */
const TEMPLATES: Record<NotificationKind, (title: string) => { title: string; body: string }> = {
  todo: (t) => ({ title: 'Approval needed', body: `"${t}" is waiting for your approval.` }),
  cc: (t) => ({ title: 'For your information', body: `You were copied on "${t}".` }),
  timeout: (t) => ({ title: 'Approval overdue', body: `"${t}" has waited past its deadline.` }),
  terminal: (t) => ({ title: 'Approval finished', body: `"${t}" has finished.` }),
  urge: (t) => ({ title: 'Reminder', body: `The initiator of "${t}" asks for your decision.` }),
};

export function notificationText(kind: NotificationKind, instanceTitle: string) {
  return TEMPLATES[kind](instanceTitle);
}
