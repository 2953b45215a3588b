import { describe, expect, it } from 'vitest';
import { cleanAssignee } from './assignee';

describe('assignee rule from the drawer', () => {
  it('keeps only the keys of the chosen rule type', () => {
    const leftovers = { userIds: [1], roleIds: [2], source: 'initiator', level: 2, field: 'who' };
    expect(cleanAssignee({ ...leftovers, type: 'form_user' })).toEqual({
      type: 'form_user',
      field: 'who',
    });
    expect(cleanAssignee({ ...leftovers, type: 'roles' })).toEqual({ type: 'roles', roleIds: [2] });
    expect(cleanAssignee({ ...leftovers, type: 'users' })).toEqual({ type: 'users', userIds: [1] });
    expect(cleanAssignee({ ...leftovers, type: 'initiator_selected' })).toEqual({
      type: 'initiator_selected',
    });
  });

  it('reads a department leader from the initiator or from a department field', () => {
    expect(
      cleanAssignee({ type: 'dept_leader', source: 'initiator', field: 'dept', userIds: [] }),
    ).toEqual({ type: 'dept_leader', source: 'initiator' });
    expect(
      cleanAssignee({
        type: 'dept_leader',
        source: 'form_field',
        field: 'dept',
        level: 2,
        initiatorIsLeader: 'skip',
      }),
    ).toEqual({
      type: 'dept_leader',
      source: 'form_field',
      field: 'dept',
      level: 2,
      initiatorIsLeader: 'skip',
    });
  });
});
