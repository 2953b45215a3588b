import type { User, UserChange } from '../../../api/identity';

/** The user form's values. */
export interface UserValues {
  username: string;
  password?: string;
  nickname?: string;
  email?: string;
  dept_id?: number | null;
  role_ids?: number[];
  post_ids?: number[];
}

/** The fields of `next` that differ from the user's, so an edit sends only what changed. */
export function changedFields(user: User, next: UserValues): UserChange {
  const out: UserChange = {};
  if (next.username !== user.username) out.username = next.username;
  if ((next.nickname ?? '') !== user.nickname) out.nickname = next.nickname ?? '';
  const email = next.email ? next.email : null;
  if (email !== user.email) out.email = email;
  const dept = next.dept_id ?? null;
  if (dept !== user.dept_id) out.dept_id = dept;
  const same = (a: number[], b: number[]) =>
    a.length === b.length && [...a].sort().join() === [...b].sort().join();
  if (!same(next.role_ids ?? [], user.role_ids)) out.role_ids = next.role_ids ?? [];
  if (!same(next.post_ids ?? [], user.post_ids)) out.post_ids = next.post_ids ?? [];
  return out;
}
