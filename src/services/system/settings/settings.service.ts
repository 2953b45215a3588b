import { sql, type Selectable } from 'kysely';
import type { BusinessAuditWriter } from '../../../platform/audit/business-audit.js';
import type { Principal } from '../../../platform/auth/principal.js';
import { containsPattern } from '../../../platform/db/like-pattern.js';
import { inTransaction } from '../../../platform/db/transaction.js';
import { AppError } from '../../../platform/errors.js';
import { pageResult, parsePage } from '../../../platform/http/envelope.js';
import { toIso } from '../../../platform/http/params.js';
import { auditChange } from '../audit.js';
import type { SystemDb, SystemTables } from '../system.tables.js';
import { settingValueProblem } from './setting-value.js';
import type {
  ListSettingsQuery,
  PutSettingInput,
  SettingType,
  SettingView,
} from './settings.schema.js';

type SettingRow = Selectable<SystemTables['sys_settings']>;

const toView = (row: SettingRow): SettingView => ({
  key: row.key,
  type: row.type as SettingType,
  value: row.value,
  description: row.description,
  updated_by: row.updated_by,
  updated_at: toIso(row.updated_at),
});

/** A tenant's typed settings: each value checked against its type on write. */
export class SettingsService {
  constructor(private readonly o: { db: SystemDb; audit: BusinessAuditWriter }) {}

  async list(principal: Principal, query: ListSettingsQuery) {
    const page = parsePage(query);
    let q = this.o.db.selectFrom('sys_settings').where('tenant_id', '=', principal.tenantId);
    if (query.keyword) q = q.where('key', 'ilike', containsPattern(query.keyword));
    const [rows, count] = await Promise.all([
      q.selectAll().orderBy('key').limit(page.pageSize).offset(page.offset).execute(),
      q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return pageResult(rows.map(toView), Number(count.n), page);
  }

  async get(principal: Principal, key: string): Promise<SettingView> {
    const row = await this.find(this.o.db, principal.tenantId, key);
    if (!row) throw AppError.notFound('setting');
    return toView(row);
  }

  /** Creates or replaces the setting (its type may change; the value must fit the new one). */
  async put(principal: Principal, key: string, input: PutSettingInput): Promise<SettingView> {
    const problem = settingValueProblem(input.type, input.value);
    if (problem) throw AppError.validation([problem]);
    const value = sql<unknown>`${JSON.stringify(input.value)}::jsonb`;
    return inTransaction(this.o.db, async (trx) => {
      const before = await this.find(trx, principal.tenantId, key, true);
      const row = await trx
        .insertInto('sys_settings')
        .values({
          tenant_id: principal.tenantId,
          key,
          type: input.type,
          value,
          description: input.description ?? before?.description ?? '',
          updated_by: principal.userId,
        })
        .onConflict((oc) =>
          oc.columns(['tenant_id', 'key']).doUpdateSet({
            type: input.type,
            value,
            description: input.description ?? before?.description ?? '',
            updated_by: principal.userId,
            updated_at: new Date(),
          }),
        )
        .returningAll()
        .executeTakeFirstOrThrow();
      const after = toView(row);
      await auditChange(this.o.audit, trx, principal, {
        action: before ? 'update' : 'create',
        targetType: 'setting',
        targetId: key,
        before: before ? toView(before) : null,
        after,
        summary: `${before ? 'changed' : 'created'} setting ${key}`,
      });
      return after;
    });
  }

  async remove(principal: Principal, key: string): Promise<void> {
    await inTransaction(this.o.db, async (trx) => {
      const before = await this.find(trx, principal.tenantId, key, true);
      if (!before) throw AppError.notFound('setting');
      await trx
        .deleteFrom('sys_settings')
        .where('tenant_id', '=', principal.tenantId)
        .where('key', '=', key)
        .execute();
      await auditChange(this.o.audit, trx, principal, {
        action: 'delete',
        targetType: 'setting',
        targetId: key,
        before: toView(before),
        after: null,
        summary: `deleted setting ${key}`,
      });
    });
  }

  private find(db: SystemDb, tenantId: number, key: string, lock = false) {
    const query = db
      .selectFrom('sys_settings')
      .selectAll()
      .where('tenant_id', '=', tenantId)
      .where('key', '=', key);
    return (lock ? query.forUpdate() : query).executeTakeFirst();
  }
}
