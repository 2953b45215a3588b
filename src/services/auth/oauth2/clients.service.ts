import { randomBytes } from 'node:crypto';
import type { BusinessAuditWriter } from '../../../platform/audit/business-audit.js';
import type { Principal } from '../../../platform/auth/principal.js';
import { conflictOnDuplicate } from '../../../platform/db/constraint-errors.js';
import { inTransaction } from '../../../platform/db/transaction.js';
import { pageResult, parsePage } from '../../../platform/http/envelope.js';
import { AppError, type FieldProblem } from '../../../platform/errors.js';
import { deleteClientArtifacts, sha256 } from './artifacts.repo.js';
import {
  CLIENT_ID_CONSTRAINT,
  deleteClient,
  findClient,
  insertClient,
  listClients,
  updateClient,
  type ClientFields,
  type ClientRow,
} from './clients.repo.js';
import type { ClientView, CreateClientInput, UpdateClientInput } from './clients.schema.js';
import type { OAuthDb, OAuthTables } from './oauth2.tables.js';
import type { Transaction } from 'kysely';

export interface OAuthClientsServiceOptions {
  db: OAuthDb;
  /** Where changes are recorded (the kernel's business-audit writer). */
  audit: BusinessAuditWriter;
}

function toView(row: ClientRow): ClientView {
  return {
    id: Number(row.id),
    client_id: row.client_id,
    name: row.name,
    redirect_uris: row.redirect_uris,
    grant_types: row.grant_types,
    public: row.public,
    access_token_format: row.access_token_format,
    token_rate_per_minute: row.token_rate_per_minute,
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  };
}

/** 32 random bytes: high entropy, so a SHA-256 of it is a safe stored form (no slow hash needed). */
const newSecret = () => randomBytes(32).toString('base64url');
const newClientId = () => `c_${randomBytes(12).toString('hex')}`;

/** The grant rules a client's settings must satisfy together. */
function ruleProblems(fields: ClientFields): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const has = (g: string) => fields.grant_types.includes(g);
  if (has('authorization_code') && fields.redirect_uris.length === 0) {
    problems.push({
      field: 'redirect_uris',
      rule: 'required',
      message: 'authorization_code needs at least one redirect URI',
    });
  }
  if (has('refresh_token') && !has('authorization_code')) {
    problems.push({
      field: 'grant_types',
      rule: 'option',
      message: 'refresh_token needs authorization_code',
    });
  }
  if (fields.public && has('client_credentials')) {
    problems.push({
      field: 'grant_types',
      rule: 'option',
      message: 'a public client cannot use client_credentials',
    });
  }
  return problems;
}

/** OAuth client administration (platform admins); every change writes a business-audit row. */
export class OAuthClientsService {
  constructor(private readonly o: OAuthClientsServiceOptions) {}

  private audit(
    trx: Transaction<OAuthTables>,
    principal: Principal,
    action: 'create' | 'update' | 'delete',
    row: ClientRow,
    before: ClientView | null,
    after: ClientView | null,
    summary: string,
  ) {
    return this.o.audit.write(trx as never, {
      tenantId: principal.tenantId,
      actorId: principal.userId,
      actorName: principal.username,
      action,
      targetType: 'oauth_client',
      targetIds: [row.id],
      before,
      after,
      summary,
    });
  }

  async list(query: { page?: string | undefined; page_size?: string | undefined }) {
    const page = parsePage(query);
    const { rows, total } = await listClients(this.o.db, page);
    return pageResult(rows.map(toView), total, page);
  }

  async get(clientId: string): Promise<ClientView> {
    const row = await findClient(this.o.db, clientId);
    if (!row) throw AppError.notFound('oauth client');
    return toView(row);
  }

  async create(principal: Principal, input: CreateClientInput) {
    const fields: ClientFields = {
      ...input,
      redirect_uris: [...new Set(input.redirect_uris)],
      grant_types: [...new Set(input.grant_types)],
    };
    const problems = ruleProblems(fields);
    if (problems.length > 0) throw AppError.validation(problems);
    const secret = fields.public ? null : newSecret();
    const row = await inTransaction(this.o.db, async (trx) => {
      const created = await conflictOnDuplicate(
        insertClient(trx, newClientId(), secret && sha256(secret), fields),
        CLIENT_ID_CONSTRAINT,
        'client id already exists',
      );
      await this.audit(
        trx,
        principal,
        'create',
        created,
        null,
        toView(created),
        `created OAuth client ${created.name}`,
      );
      return created;
    });
    return { ...toView(row), client_secret: secret };
  }

  async update(
    principal: Principal,
    clientId: string,
    input: UpdateClientInput,
  ): Promise<ClientView> {
    return inTransaction(this.o.db, async (trx) => {
      const before = await findClient(trx, clientId, true);
      if (!before) throw AppError.notFound('oauth client');
      const fields: ClientFields = {
        name: input.name ?? before.name,
        redirect_uris: input.redirect_uris
          ? [...new Set(input.redirect_uris)]
          : before.redirect_uris,
        grant_types: input.grant_types ? [...new Set(input.grant_types)] : before.grant_types,
        public: before.public,
        access_token_format: input.access_token_format ?? before.access_token_format,
        token_rate_per_minute: input.token_rate_per_minute ?? before.token_rate_per_minute,
      };
      const problems = ruleProblems(fields);
      if (problems.length > 0) throw AppError.validation(problems);
      const after = await updateClient(trx, clientId, fields, before.secret_hash);
      await this.audit(
        trx,
        principal,
        'update',
        after,
        toView(before),
        toView(after),
        `changed OAuth client ${after.name}`,
      );
      return toView(after);
    });
  }

  /** A new secret; the old one stops working at once. Shown in this response only. */
  async rotateSecret(principal: Principal, clientId: string) {
    const secret = newSecret();
    const row = await inTransaction(this.o.db, async (trx) => {
      const before = await findClient(trx, clientId, true);
      if (!before) throw AppError.notFound('oauth client');
      if (before.public)
        throw AppError.validation([
          { field: 'public', rule: 'option', message: 'a public client has no secret' },
        ]);
      const {
        public: isPublic,
        name,
        redirect_uris,
        grant_types,
        access_token_format,
        token_rate_per_minute,
      } = before;
      const after = await updateClient(
        trx,
        clientId,
        {
          public: isPublic,
          name,
          redirect_uris,
          grant_types,
          access_token_format,
          token_rate_per_minute,
        },
        sha256(secret),
      );
      await this.audit(
        trx,
        principal,
        'update',
        after,
        toView(before),
        toView(after),
        `rotated the secret of OAuth client ${after.name}`,
      );
      return after;
    });
    return { ...toView(row), client_secret: secret };
  }

  /** Deletes the client and every token and grant issued to it. */
  async remove(principal: Principal, clientId: string): Promise<void> {
    await inTransaction(this.o.db, async (trx) => {
      const before = await findClient(trx, clientId, true);
      if (!before) throw AppError.notFound('oauth client');
      await deleteClient(trx, clientId);
      await deleteClientArtifacts(trx, clientId);
      await this.audit(
        trx,
        principal,
        'delete',
        before,
        toView(before),
        null,
        `deleted OAuth client ${before.name}`,
      );
    });
  }
}
