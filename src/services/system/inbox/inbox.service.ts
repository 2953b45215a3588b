import type { Selectable } from 'kysely';
import type { Principal } from '../../../platform/auth/principal.js';
import { AppError } from '../../../platform/errors.js';
import { pageResult, parsePage } from '../../../platform/http/envelope.js';
import { toIso, toIsoOrNull } from '../../../platform/http/params.js';
import type { SystemDb, SystemTables } from '../system.tables.js';
import type { InboxView, ListInboxQuery } from './inbox.schema.js';

type InboxRow = Selectable<SystemTables['sys_inbox']>;

const toView = (row: InboxRow): InboxView => ({
  id: row.id,
  category: row.category,
  title: row.title,
  body: row.body,
  link: row.link,
  read_at: toIsoOrNull(row.read_at),
  created_at: toIso(row.created_at),
});

/** Bounds of a delivered notice: longer texts are cut, never refused (the sender is code). */
const LIMITS = { category: 64, title: 200, body: 4000, link: 500 } as const;
const cut = (text: string, max: number) => (text.length > max ? text.slice(0, max) : text);

export interface InboxNotice {
  tenantId: number;
  userIds: readonly number[];
  category: string;
  title: string;
  body: string;
  link: string | null;
}

/**
 * Puts one row per user in the inbox. Rows carry the tenant: a user id of another tenant gets a
 * row nobody can read (every read filters by the reader's tenant and id).
 */
export async function deliverToInbox(db: SystemDb, notice: InboxNotice): Promise<void> {
  const userIds = [...new Set(notice.userIds)].filter((id) => Number.isSafeInteger(id) && id > 0);
  if (userIds.length === 0) return;
  await db
    .insertInto('sys_inbox')
    .values(
      userIds.map((userId) => ({
        tenant_id: notice.tenantId,
        user_id: userId,
        category: cut(notice.category, LIMITS.category),
        title: cut(notice.title, LIMITS.title),
        body: cut(notice.body, LIMITS.body),
        link: notice.link === null ? null : cut(notice.link, LIMITS.link),
      })),
    )
    .execute();
}

/** A user's own inbox: every query filters by the caller's tenant and user id. */
export class InboxService {
  constructor(private readonly o: { db: SystemDb; now: () => Date }) {}

  private mine(principal: Principal) {
    return this.o.db
      .selectFrom('sys_inbox')
      .where('tenant_id', '=', principal.tenantId)
      .where('user_id', '=', principal.userId);
  }

  async list(principal: Principal, query: ListInboxQuery) {
    const page = parsePage(query);
    let q = this.mine(principal);
    if (query.unread === 'true') q = q.where('read_at', 'is', null);
    if (query.unread === 'false') q = q.where('read_at', 'is not', null);
    const [rows, count] = await Promise.all([
      q.selectAll().orderBy('id', 'desc').limit(page.pageSize).offset(page.offset).execute(),
      q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return pageResult(rows.map(toView), Number(count.n), page);
  }

  async unreadCount(principal: Principal): Promise<{ count: number }> {
    const row = await this.mine(principal)
      .where('read_at', 'is', null)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return { count: Number(row.n) };
  }

  /** Marks one of the caller's notices read (kept as first read); another's id is 404. */
  async markRead(principal: Principal, id: number): Promise<InboxView> {
    const row = await this.o.db
      .updateTable('sys_inbox')
      .set((eb) => ({ read_at: eb.fn.coalesce('read_at', eb.val(this.o.now())) }))
      .where('tenant_id', '=', principal.tenantId)
      .where('user_id', '=', principal.userId)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    if (!row) throw AppError.notFound('notice');
    return toView(row);
  }

  async markAllRead(principal: Principal): Promise<{ updated: number }> {
    const result = await this.o.db
      .updateTable('sys_inbox')
      .set({ read_at: this.o.now() })
      .where('tenant_id', '=', principal.tenantId)
      .where('user_id', '=', principal.userId)
      .where('read_at', 'is', null)
      .executeTakeFirst();
    return { updated: Number(result.numUpdatedRows) };
  }
}
