import { describe, expect, it } from 'vitest';
import type { User } from '../../../api/identity';
import { changedFields } from './userChanges';

const user: User = {
  id: 7,
  tenant_id: 1,
  username: 'ann',
  nickname: 'Ann',
  email: null,
  dept_id: 3,
  status: 'active',
  is_platform_admin: false,
  must_change_password: false,
  role_ids: [1, 2],
  post_ids: [],
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
};

describe('changedFields', () => {
  it('sends nothing for an edit that changed nothing (an untouched e-mail needs no extra right)', () => {
    expect(
      changedFields(user, {
        username: 'ann',
        nickname: 'Ann',
        email: '',
        dept_id: 3,
        role_ids: [2, 1],
        post_ids: [],
      }),
    ).toEqual({});
  });

  it('sends only what changed, a cleared department and e-mail as null', () => {
    expect(
      changedFields(
        { ...user, email: 'ann@example.com' },
        { username: 'ann', nickname: 'Ann B', email: '', dept_id: undefined, role_ids: [1] },
      ),
    ).toEqual({ nickname: 'Ann B', email: null, dept_id: null, role_ids: [1] });
  });
});
