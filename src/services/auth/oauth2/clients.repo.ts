import type { AdapterPayload } from 'oidc-provider';
import type { Transaction } from 'kysely';
import type { Page } from '../../../platform/http/envelope.js';
import type { OAuthDb, OAuthTables } from './oauth2.tables.js';

export const CLIENT_ID_CONSTRAINT = 'auth_oauth_clients_client_id_key';

export interface ClientRow {
  id: number;
  client_id: string;
  name: string;
  secret_hash: string | null;
  redirect_uris: string[];
  grant_types: string[];
  public: boolean;
  access_token_format: 'opaque' | 'jwt';
  token_rate_per_minute: number;
  created_at: Date;
  updated_at: Date;
}

export interface ClientFields {
  name: string;
  redirect_uris: string[];
  grant_types: string[];
  public: boolean;
  access_token_format: 'opaque' | 'jwt';
  token_rate_per_minute: number;
}

const COLUMNS = [
  'id',
  'client_id',
  'name',
  'secret_hash',
  'redirect_uris',
  'grant_types',
  'public',
  'access_token_format',
  'token_rate_per_minute',
  'created_at',
  'updated_at',
] as const;

type Db = OAuthDb | Transaction<OAuthTables>;

export async function listClients(db: Db, page: Page) {
  const [rows, count] = await Promise.all([
    db
      .selectFrom('auth_oauth_clients')
      .select(COLUMNS)
      .orderBy('id')
      .limit(page.pageSize)
      .offset(page.offset)
      .execute(),
    db
      .selectFrom('auth_oauth_clients')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows: rows as ClientRow[], total: Number(count.n) };
}

export async function findClient(db: Db, clientId: string, forUpdate = false) {
  let query = db.selectFrom('auth_oauth_clients').select(COLUMNS).where('client_id', '=', clientId);
  if (forUpdate) query = query.forUpdate();
  return (await query.executeTakeFirst()) as ClientRow | undefined;
}

export async function insertClient(
  db: Db,
  clientId: string,
  secretHash: string | null,
  fields: ClientFields,
) {
  return (await db
    .insertInto('auth_oauth_clients')
    .values({
      ...fields,
      client_id: clientId,
      secret_hash: secretHash,
      redirect_uris: JSON.stringify(fields.redirect_uris),
      grant_types: JSON.stringify(fields.grant_types),
    })
    .returning(COLUMNS)
    .executeTakeFirstOrThrow()) as ClientRow;
}

export async function updateClient(
  db: Db,
  clientId: string,
  fields: ClientFields,
  secretHash: string | null,
) {
  return (await db
    .updateTable('auth_oauth_clients')
    .set({
      ...fields,
      secret_hash: secretHash,
      redirect_uris: JSON.stringify(fields.redirect_uris),
      grant_types: JSON.stringify(fields.grant_types),
      updated_at: new Date(),
    })
    .where('client_id', '=', clientId)
    .returning(COLUMNS)
    .executeTakeFirstOrThrow()) as ClientRow;
}

export async function deleteClient(db: Db, clientId: string): Promise<void> {
  await db.deleteFrom('auth_oauth_clients').where('client_id', '=', clientId).execute();
}

/** What the provider and the rate limiter read about a client. */
export interface ClientStore {
  /** oidc-provider client metadata, the secret as its SHA-256 (see the compareClientSecret override). */
  metadataOf(clientId: string): Promise<AdapterPayload | undefined>;
  find(clientId: string): Promise<ClientRow | undefined>;
}

export function createClientStore(db: OAuthDb): ClientStore {
  return {
    find: (clientId) => findClient(db, clientId),
    async metadataOf(clientId) {
      const row = await findClient(db, clientId);
      if (!row) return undefined;
      const code = row.grant_types.includes('authorization_code');
      return {
        client_id: row.client_id,
        client_name: row.name,
        ...(row.public
          ? { token_endpoint_auth_method: 'none', application_type: 'native' }
          : {
              client_secret: row.secret_hash ?? undefined,
              token_endpoint_auth_method: 'client_secret_basic',
              application_type: 'web',
            }),
        redirect_uris: code ? row.redirect_uris : [],
        grant_types: row.grant_types,
        response_types: code ? ['code'] : [],
        id_token_signed_response_alg: 'RS256',
        access_token_format: row.access_token_format,
      };
    },
  };
}
