/**
 * What the auth service needs from elsewhere, declared here so that it imports no other
 * service: the composition root (src/start.ts) hands it identity's directory, which fits.
 */

/** What sign-in needs to check a password. */
export interface UserCredentials {
  id: number;
  tenant_id: number;
  username: string;
  password_hash: string;
  status: 'active' | 'disabled';
  /** Read with the hash: a session opened with it dies if an administrator bumps it meanwhile. */
  session_version: number;
}

/** A user as forward-auth and `/me` see them: identity plus effective permissions. */
export interface AuthUser {
  id: number;
  tenant_id: number;
  username: string;
  nickname: string;
  /** As an administrator set it; the platform never confirms addresses by mail. */
  email: string | null;
  dept_id: number | null;
  /** `disabled` also while the user's tenant is disabled. */
  status: 'active' | 'disabled';
  is_platform_admin: boolean;
  must_change_password: boolean;
  /** Sessions opened under another version are over (an admin set the password or disabled). */
  session_version: number;
  roles: string[];
  permissions: string[];
}

/** An account found by username or e-mail, in an active tenant. */
export interface AccountMatch {
  id: number;
  tenant_id: number;
  username: string;
  email: string | null;
}

/** The user directory sign-in, refresh, forward-auth and password change read and write. */
export interface UserDirectory {
  findTenant(code: string): Promise<{ id: number; status: 'active' | 'disabled' } | undefined>;
  findCredentials(tenantId: number, username: string): Promise<UserCredentials | undefined>;
  /**
   * May be cached: the provider invalidates an entry when the user, a role or the tenant changes.
   * `fresh` reads past the cache (refresh must see a revocation at once, on every replica).
   */
  findUser(userId: number, options?: { fresh?: boolean }): Promise<AuthUser | undefined>;
  passwordHashOf(userId: number): Promise<string | undefined>;
  /** Also clears must_change_password. */
  setPassword(userId: number, passwordHash: string): Promise<void>;
  /** An active account of an active tenant by username or e-mail (password reset). */
  findAccount(tenantCode: string, usernameOrEmail: string): Promise<AccountMatch | undefined>;
}

/** The auth service's needs, as one object. */
export interface AuthPorts {
  users: UserDirectory;
  /**
   * The current text of a mail template (`auth.password_reset`: the title is the subject)
   * filled with `params`. Unset: the built-in text.
   */
  renderText?(
    key: string,
    params: Readonly<Record<string, string | number>>,
  ): Promise<{ title: string; body: string }>;
}
