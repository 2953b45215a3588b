import { sql, type Selectable } from 'kysely';
import type { BusinessAuditWriter } from '../../../platform/audit/business-audit.js';
import type { Principal } from '../../../platform/auth/principal.js';
import { containsPattern } from '../../../platform/db/like-pattern.js';
import { inTransaction } from '../../../platform/db/transaction.js';
import { AppError } from '../../../platform/errors.js';
import { pageResult, parsePage } from '../../../platform/http/envelope.js';
import { toIso, toIsoOrNull } from '../../../platform/http/params.js';
import { auditChange } from '../audit.js';
import type { SystemDb, SystemTables } from '../system.tables.js';
import type {
  CreateNoticeInput,
  EffectiveNoticeView,
  ListNoticesQuery,
  NoticeView,
  UpdateNoticeInput,
} from './notices.schema.js';

type NoticeRow = Selectable<SystemTables['sys_notices']>;

/** The bare array of `GET /api/v1/notices/effective` holds at most this many (API.md). */
export const MAX_EFFECTIVE_NOTICES = 50;

const toView = (row: NoticeRow): NoticeView => ({
  ...row,
  level: row.level as NoticeView['level'],
  starts_at: toIsoOrNull(row.starts_at),
  ends_at: toIsoOrNull(row.ends_at),
  created_at: toIso(row.created_at),
  updated_at: toIso(row.updated_at),
});

const dateOf = (value: string | null | undefined) =>
  value === undefined ? undefined : value === null ? null : new Date(value);

/** ends_at after starts_at when both are set (the table's check, answered as 40001 first). */
function checkWindow(startsAt: Date | null, endsAt: Date | null): void {
  if (startsAt && endsAt && endsAt.getTime() <= startsAt.getTime()) {
    throw AppError.validation([
      { field: 'ends_at', rule: 'range', message: 'must be after starts_at' },
    ]);
  }
}

/** A tenant's notices: edited under permission codes, read by every user while effective. */
export class NoticesService {
  constructor(private readonly o: { db: SystemDb; audit: BusinessAuditWriter; now: () => Date }) {}

  async list(principal: Principal, query: ListNoticesQuery) {
    const page = parsePage(query);
    let q = this.o.db.selectFrom('sys_notices').where('tenant_id', '=', principal.tenantId);
    if (query.level) q = q.where('level', '=', query.level);
    if (query.published) q = q.where('published', '=', query.published === 'true');
    if (query.keyword) q = q.where('title', 'ilike', containsPattern(query.keyword));
    const [rows, count] = await Promise.all([
      q.selectAll().orderBy('id', 'desc').limit(page.pageSize).offset(page.offset).execute(),
      q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return pageResult(rows.map(toView), Number(count.n), page);
  }

  /**
   * Published notices of the caller's tenant whose window holds now, newest first (by the time
   * they took effect: `starts_at`, else creation), at most MAX_EFFECTIVE_NOTICES.
   */
  async effective(principal: Principal): Promise<EffectiveNoticeView[]> {
    const now = this.o.now();
    const rows = await this.o.db
      .selectFrom('sys_notices')
      .select(['id', 'title', 'body', 'level', 'starts_at', 'ends_at', 'created_at'])
      .where('tenant_id', '=', principal.tenantId)
      .where('published', '=', true)
      .where((eb) => eb.or([eb('starts_at', 'is', null), eb('starts_at', '<=', now)]))
      .where((eb) => eb.or([eb('ends_at', 'is', null), eb('ends_at', '>', now)]))
      .orderBy(sql`coalesce(starts_at, created_at)`, 'desc')
      .orderBy('id', 'desc')
      .limit(MAX_EFFECTIVE_NOTICES)
      .execute();
    return rows.map((row) => ({
      ...row,
      level: row.level as NoticeView['level'],
      starts_at: toIsoOrNull(row.starts_at),
      ends_at: toIsoOrNull(row.ends_at),
      created_at: toIso(row.created_at),
    }));
  }

  async get(principal: Principal, noticeId: number): Promise<NoticeView> {
    return toView(await this.find(this.o.db, principal.tenantId, noticeId));
  }

  async create(principal: Principal, input: CreateNoticeInput): Promise<NoticeView> {
    const startsAt = dateOf(input.starts_at) ?? null;
    const endsAt = dateOf(input.ends_at) ?? null;
    checkWindow(startsAt, endsAt);
    return inTransaction(this.o.db, async (trx) => {
      const row = await trx
        .insertInto('sys_notices')
        .values({
          tenant_id: principal.tenantId,
          title: input.title,
          body: input.body,
          level: input.level ?? 'info',
          starts_at: startsAt,
          ends_at: endsAt,
          published: input.published ?? false,
          created_by: principal.userId,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      const after = toView(row);
      await auditChange(this.o.audit, trx, principal, {
        action: 'create',
        targetType: 'notice',
        targetId: row.id,
        before: null,
        after,
        summary: `created notice ${row.title}`,
      });
      return after;
    });
  }

  async update(
    principal: Principal,
    noticeId: number,
    input: UpdateNoticeInput,
  ): Promise<NoticeView> {
    return inTransaction(this.o.db, async (trx) => {
      const before = await this.find(trx, principal.tenantId, noticeId, true);
      const startsAt = dateOf(input.starts_at);
      const endsAt = dateOf(input.ends_at);
      checkWindow(
        startsAt === undefined ? before.starts_at : startsAt,
        endsAt === undefined ? before.ends_at : endsAt,
      );
      const row = await trx
        .updateTable('sys_notices')
        .set({
          title: input.title,
          body: input.body,
          level: input.level,
          published: input.published,
          starts_at: startsAt,
          ends_at: endsAt,
          updated_at: new Date(),
        })
        .where('tenant_id', '=', principal.tenantId)
        .where('id', '=', noticeId)
        .returningAll()
        .executeTakeFirstOrThrow();
      const after = toView(row);
      await auditChange(this.o.audit, trx, principal, {
        action: 'update',
        targetType: 'notice',
        targetId: noticeId,
        before: toView(before),
        after,
        summary: `updated notice ${row.title}`,
      });
      return after;
    });
  }

  async remove(principal: Principal, noticeId: number): Promise<void> {
    await inTransaction(this.o.db, async (trx) => {
      const before = await this.find(trx, principal.tenantId, noticeId, true);
      await trx
        .deleteFrom('sys_notices')
        .where('tenant_id', '=', principal.tenantId)
        .where('id', '=', noticeId)
        .execute();
      await auditChange(this.o.audit, trx, principal, {
        action: 'delete',
        targetType: 'notice',
        targetId: noticeId,
        before: toView(before),
        after: null,
        summary: `deleted notice ${before.title}`,
      });
    });
  }

  /** The notice of the tenant (another tenant's id is 404), row-locked when asked. */
  private async find(db: SystemDb, tenantId: number, noticeId: number, lock = false) {
    const query = db
      .selectFrom('sys_notices')
      .selectAll()
      .where('tenant_id', '=', tenantId)
      .where('id', '=', noticeId);
    const row = await (lock ? query.forUpdate() : query).executeTakeFirst();
    if (!row) throw AppError.notFound('notice');
    return row;
  }
}
