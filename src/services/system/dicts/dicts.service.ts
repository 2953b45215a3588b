import { sql, type Selectable } from 'kysely';
import type { BusinessAuditWriter } from '../../../platform/audit/business-audit.js';
import type { Principal } from '../../../platform/auth/principal.js';
import { conflictOnDuplicate } from '../../../platform/db/constraint-errors.js';
import { containsPattern } from '../../../platform/db/like-pattern.js';
import { inTransaction } from '../../../platform/db/transaction.js';
import { AppError, type FieldProblem } from '../../../platform/errors.js';
import { pageResult, parsePage } from '../../../platform/http/envelope.js';
import { toIso } from '../../../platform/http/params.js';
import { auditChange } from '../audit.js';
import type { SystemDb, SystemTables } from '../system.tables.js';
import type {
  CreateDictInput,
  DictItem,
  DictItemInput,
  DictOptionsView,
  DictView,
  ListDictsQuery,
  UpdateDictInput,
} from './dicts.schema.js';

type DictRow = Selectable<SystemTables['sys_dicts']>;

const DUPLICATE = 'a dictionary with this code exists in the tenant';

const toView = (row: DictRow): DictView => ({
  ...row,
  items: row.items as DictItem[],
  created_at: toIso(row.created_at),
  updated_at: toIso(row.updated_at),
});

/**
 * The items as stored: defaults filled in, ordered by sort then the order sent (a stable sort),
 * every duplicate value refused at once (40001, naming each).
 */
export function normalizeItems(items: readonly DictItemInput[]): DictItem[] {
  const seen = new Set<string>();
  const problems: FieldProblem[] = [];
  items.forEach((item, i) => {
    if (seen.has(item.value)) {
      problems.push({ field: `items.${i}.value`, rule: 'format', message: 'duplicate value' });
    }
    seen.add(item.value);
  });
  if (problems.length > 0) throw AppError.validation(problems);
  return items
    .map((item) => ({
      value: item.value,
      label: item.label,
      label_en: item.label_en || null,
      sort: item.sort ?? 0,
      enabled: item.enabled ?? true,
    }))
    .sort((a, b) => a.sort - b.sort);
}

const itemsJson = (items: DictItem[]) => sql<unknown>`${JSON.stringify(items)}::jsonb`;

/** A tenant's dictionaries: option lists the console's selects read. */
export class DictsService {
  constructor(private readonly o: { db: SystemDb; audit: BusinessAuditWriter }) {}

  async list(principal: Principal, query: ListDictsQuery) {
    const page = parsePage(query);
    let q = this.o.db.selectFrom('sys_dicts').where('tenant_id', '=', principal.tenantId);
    if (query.keyword) {
      const pattern = containsPattern(query.keyword);
      q = q.where((eb) => eb.or([eb('code', 'ilike', pattern), eb('name', 'ilike', pattern)]));
    }
    const [rows, count] = await Promise.all([
      q.selectAll().orderBy('code').limit(page.pageSize).offset(page.offset).execute(),
      q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return pageResult(rows.map(toView), Number(count.n), page);
  }

  async get(principal: Principal, dictId: number): Promise<DictView> {
    return toView(await this.find(this.o.db, principal.tenantId, dictId));
  }

  /** The enabled items of the tenant's dictionary `code`, for a select (any signed-in user). */
  async options(principal: Principal, code: string): Promise<DictOptionsView> {
    const row = await this.o.db
      .selectFrom('sys_dicts')
      .selectAll()
      .where('tenant_id', '=', principal.tenantId)
      .where('code', '=', code)
      .executeTakeFirst();
    if (!row) throw AppError.notFound('dictionary');
    const items = (row.items as DictItem[])
      .filter((item) => item.enabled)
      .map(({ value, label, label_en }) => ({ value, label, label_en }));
    return { code: row.code, name: row.name, items };
  }

  async create(principal: Principal, input: CreateDictInput): Promise<DictView> {
    const items = normalizeItems(input.items ?? []);
    return inTransaction(this.o.db, async (trx) => {
      const row = await conflictOnDuplicate(
        trx
          .insertInto('sys_dicts')
          .values({
            tenant_id: principal.tenantId,
            code: input.code,
            name: input.name,
            items: itemsJson(items),
          })
          .returningAll()
          .executeTakeFirstOrThrow(),
        'sys_dicts_code',
        DUPLICATE,
      );
      const after = toView(row);
      await auditChange(this.o.audit, trx, principal, {
        action: 'create',
        targetType: 'dict',
        targetId: row.id,
        before: null,
        after,
        summary: `created dictionary ${row.code}`,
      });
      return after;
    });
  }

  async update(principal: Principal, dictId: number, input: UpdateDictInput): Promise<DictView> {
    const items = input.items ? normalizeItems(input.items) : undefined;
    return inTransaction(this.o.db, async (trx) => {
      const before = await this.find(trx, principal.tenantId, dictId, true);
      const row = await conflictOnDuplicate(
        trx
          .updateTable('sys_dicts')
          .set({
            code: input.code,
            name: input.name,
            ...(items && { items: itemsJson(items) }),
            updated_at: new Date(),
          })
          .where('tenant_id', '=', principal.tenantId)
          .where('id', '=', dictId)
          .returningAll()
          .executeTakeFirstOrThrow(),
        'sys_dicts_code',
        DUPLICATE,
      );
      const after = toView(row);
      await auditChange(this.o.audit, trx, principal, {
        action: 'update',
        targetType: 'dict',
        targetId: dictId,
        before: toView(before),
        after,
        summary: `updated dictionary ${row.code}`,
      });
      return after;
    });
  }

  async remove(principal: Principal, dictId: number): Promise<void> {
    await inTransaction(this.o.db, async (trx) => {
      const before = await this.find(trx, principal.tenantId, dictId, true);
      await trx
        .deleteFrom('sys_dicts')
        .where('tenant_id', '=', principal.tenantId)
        .where('id', '=', dictId)
        .execute();
      await auditChange(this.o.audit, trx, principal, {
        action: 'delete',
        targetType: 'dict',
        targetId: dictId,
        before: toView(before),
        after: null,
        summary: `deleted dictionary ${before.code}`,
      });
    });
  }

  /** The tenant's dictionary (another tenant's id is 404), row-locked when asked. */
  private async find(db: SystemDb, tenantId: number, dictId: number, lock = false) {
    const query = db
      .selectFrom('sys_dicts')
      .selectAll()
      .where('tenant_id', '=', tenantId)
      .where('id', '=', dictId);
    const row = await (lock ? query.forUpdate() : query).executeTakeFirst();
    if (!row) throw AppError.notFound('dictionary');
    return row;
  }
}
