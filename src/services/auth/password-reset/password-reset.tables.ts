import type { ColumnType, Generated, Kysely } from 'kysely';

export type PasswordResetTables = {
  auth_password_resets: {
    id: Generated<number>;
    tenant_id: number;
    user_id: number;
    token_hash: string;
    expires_at: Date;
    consumed_at: Date | null;
    created_at: ColumnType<Date, Date | undefined, never>;
  };
};

export type PasswordResetDb = Kysely<PasswordResetTables>;
