import type { AssigneeRule } from '../../../api/bpm';

/**
 * The drawer's assignee values as the rule the server takes: the form keeps the values of
 * fields no longer shown (the user ids of "named people" after switching to roles, say), so
 * only the keys of the chosen rule type are kept.
 */
export function cleanAssignee(v: Record<string, unknown>): AssigneeRule {
  const ids = (x: unknown) => (Array.isArray(x) ? x.map(Number) : []);
  switch (v.type) {
    case 'roles':
      return { type: 'roles', roleIds: ids(v.roleIds) };
    case 'form_user':
      return { type: 'form_user', field: String(v.field ?? '') };
    case 'initiator_selected':
      return { type: 'initiator_selected' };
    case 'dept_leader': {
      const options = {
        ...(typeof v.level === 'number' ? { level: v.level } : {}),
        ...(typeof v.initiatorIsLeader === 'string'
          ? { initiatorIsLeader: v.initiatorIsLeader as 'next_level' | 'skip' | 'allow' }
          : {}),
      };
      return v.source === 'form_field'
        ? { type: 'dept_leader', source: 'form_field', field: String(v.field ?? ''), ...options }
        : { type: 'dept_leader', source: 'initiator', ...options };
    }
    default:
      return { type: 'users', userIds: ids(v.userIds) };
  }
}
