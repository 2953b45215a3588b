import type { ColumnType, Generated, Kysely } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

export type IdentityTables = {
  iam_packages: {
    id: Generated<number>;
    name: string;
    /** jsonb: read as numbers, written as JSON text. */
    menu_ids: ColumnType<number[], string | undefined, string>;
    storage_quota_mb: number;
    status: 'active' | 'disabled';
    created_at: Timestamp;
    updated_at: Timestamp;
  };
  iam_posts: {
    id: Generated<number>;
    tenant_id: number;
    code: string;
    name: string;
    sort: number;
    status: 'active' | 'disabled';
    created_at: Timestamp;
    updated_at: Timestamp;
  };
  iam_user_posts: {
    user_id: number;
    post_id: number;
  };
  iam_menus: {
    id: Generated<number>;
    parent_id: number | null;
    name: string;
    kind: 'directory' | 'page' | 'button';
    path: string | null;
    permission_code: string | null;
    icon: string | null;
    sort: number;
    visible: boolean;
    platform_only: Generated<boolean>;
    created_at: Timestamp;
    updated_at: Timestamp;
  };
  iam_tenants: {
    id: Generated<number>;
    code: string;
    name: string;
    status: 'active' | 'disabled';
    storage_quota_mb: number;
    package_id: ColumnType<number | null, number | null | undefined, number | null>;
    created_at: Timestamp;
    updated_at: Timestamp;
  };
  iam_departments: {
    id: Generated<number>;
    tenant_id: number;
    name: string;
    parent_id: number | null;
    leader_id: number | null;
    sort: number;
    created_at: Timestamp;
    updated_at: Timestamp;
  };
  iam_users: {
    id: Generated<number>;
    tenant_id: number;
    username: string;
    password_hash: string;
    nickname: string;
    email: string | null;
    dept_id: number | null;
    status: 'active' | 'disabled';
    is_platform_admin: boolean;
    must_change_password: boolean;
    password_changed_at: Date | null;
    /** Bumped when an administrator sets the password or disables the user: ends their sessions. */
    session_version: Generated<number>;
    created_at: Timestamp;
    updated_at: Timestamp;
  };
  iam_roles: {
    id: Generated<number>;
    tenant_id: number;
    code: string;
    name: string;
    permissions: ColumnType<string[], string, string>;
    created_at: Timestamp;
    updated_at: Timestamp;
  };
  iam_user_roles: {
    user_id: number;
    role_id: number;
  };
};

/** The identity database handle; a transaction (`Transaction<IdentityTables>`) is one too. */
export type IdentityDb = Kysely<IdentityTables>;
