import type { ColumnType, Generated, Kysely } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

export type OAuthTables = {
  auth_oauth_clients: {
    id: Generated<number>;
    client_id: string;
    name: string;
    secret_hash: string | null;
    redirect_uris: ColumnType<string[], string, string>;
    grant_types: ColumnType<string[], string, string>;
    public: boolean;
    access_token_format: 'opaque' | 'jwt';
    token_rate_per_minute: number;
    created_at: Timestamp;
    updated_at: Timestamp;
  };
  auth_oauth_artifacts: {
    model: string;
    id_hash: string;
    payload: ColumnType<Record<string, unknown>, string, string>;
    grant_hash: string | null;
    uid_hash: string | null;
    client_id: string | null;
    expires_at: Date | null;
    consumed_at: Date | null;
    created_at: Timestamp;
  };
  auth_oauth_signing_keys: {
    kid: string;
    alg: string;
    public_jwk: ColumnType<Record<string, unknown>, string, string>;
    private_jwk_encrypted: string;
    created_at: Timestamp;
    retired_at: Date | null;
  };
};

export type OAuthDb = Kysely<OAuthTables>;
