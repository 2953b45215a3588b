import type { ColumnType, Generated, Kysely } from 'kysely';

export type TotpTables = {
  auth_totp: {
    user_id: number;
    secret_encrypted: string;
    enabled_at: Date | null;
    last_time_step: ColumnType<number | null, number | null, number | null>;
    created_at: ColumnType<Date, Date | undefined, never>;
  };
  auth_totp_recovery_codes: {
    id: Generated<number>;
    user_id: number;
    code_hash: string;
    used_at: Date | null;
  };
};

export type TotpDb = Kysely<TotpTables>;
