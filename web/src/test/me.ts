import type { Me } from '../auth/AuthContext';

/** A signed-in user as `GET /me` answers: an ordinary one unless `over` says otherwise. */
export const aMe = (over: Partial<Me> = {}): Me => ({
  id: 2,
  username: 'bob',
  nickname: 'Bob',
  tenant_id: 1,
  dept_id: null,
  roles: [],
  permissions: [],
  is_platform_admin: false,
  must_change_password: false,
  ...over,
});
