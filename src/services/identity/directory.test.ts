import type { Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createIdentityDirectory, userCacheKey, type DirectoryUser } from './directory.js';
import type { IdentityTables } from './identity.tables.js';

const ADMIN: DirectoryUser = {
  id: 1,
  tenant_id: 1,
  username: 'admin',
  nickname: 'Admin',
  email: null,
  dept_id: null,
  status: 'active',
  is_platform_admin: true,
  must_change_password: false,
  session_version: 1,
  roles: ['admin'],
  permissions: ['*'],
};

/** A directory over a cache holding `entries`; the database must not be reached. */
function directoryOver(entries: Map<string, string>) {
  const cache = {
    get: async (key: string) => entries.get(key) ?? null,
    set: async (key: string, value: string) => void entries.set(key, value),
    del: async (...keys: string[]) => keys.forEach((key) => entries.delete(key)),
  };
  const db = new Proxy({} as Kysely<IdentityTables>, {
    get: () => {
      throw new Error('the database was reached');
    },
  });
  return createIdentityDirectory(db, cache);
}

describe('the user entry forward-auth and /me read', () => {
  it('is parsed once while its cached text is unchanged, and shared frozen', async () => {
    const entries = new Map([[userCacheKey(1), JSON.stringify(ADMIN)]]);
    const directory = directoryOver(entries);
    const first = await directory.findUser(1);
    expect(first).toEqual(ADMIN);
    expect(await directory.findUser(1)).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(Object.isFrozen(first!.permissions)).toBe(true);
  });

  it('is parsed again once identity changed it', async () => {
    const entries = new Map([[userCacheKey(1), JSON.stringify(ADMIN)]]);
    const directory = directoryOver(entries);
    const before = await directory.findUser(1);
    entries.set(userCacheKey(1), JSON.stringify({ ...ADMIN, session_version: 2 }));
    const after = await directory.findUser(1);
    expect(after).not.toBe(before);
    expect(after?.session_version).toBe(2);
  });
});
