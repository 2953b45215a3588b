import type { ColumnType, Generated } from 'kysely';

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;

export type AuthTables = {
  /** Login events waiting for the stream (0029_auth_login_outbox.sql). */
  auth_login_outbox: {
    id: Generated<number>;
    event_id: string;
    event: string;
    payload: ColumnType<Record<string, unknown>, string, string>;
    created_at: CreatedAt;
    attempts: Generated<number>;
    claimed_until: Date | null;
    last_error: string | null;
  };
  auth_sessions: {
    /** Random (newSessionId), never a sequence. */
    id: number;
    tenant_id: number;
    user_id: number;
    ip: string | null;
    user_agent: string | null;
    device_id: string | null;
    created_at: CreatedAt;
    revoked_at: Date | null;
    revoked_reason: string | null;
    /** The user's session_version at sign-in. */
    user_version: number;
    /** Absolute end of the session family (SESSION_MAX_AGE). */
    expires_at: Date;
  };
  auth_refresh_tokens: {
    id: Generated<number>;
    session_id: number;
    token_hash: string;
    parent_id: number | null;
    created_at: CreatedAt;
    expires_at: Date;
    consumed_at: Date | null;
  };
};
