import { sql, type ColumnType, type Generated, type Insertable, type Kysely } from 'kysely';
import type { Page } from '../../../platform/http/envelope.js';
import type { LoginLogFilter } from './login-logs.schema.js';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

export type LoginLogTables = {
  audit_login_logs: {
    id: Generated<number>;
    event_id: string;
    tenant_id: number | null;
    user_id: number | null;
    username: string;
    login_type: string;
    success: boolean;
    reason: string | null;
    ip: string | null;
    location: string | null;
    device: string | null;
    os: string | null;
    browser: string | null;
    device_id: string | null;
    new_device: Generated<boolean>;
    session_id: number | null;
    created_at: Timestamp;
  };
  audit_login_devices: {
    user_id: number;
    device_id: string;
    tenant_id: number;
    first_seen_at: Generated<Date>;
  };
};
export type LoginLogDb = Kysely<LoginLogTables>;

export type NewLoginLog = Insertable<LoginLogTables['audit_login_logs']> & {
  tenant_id: number | null;
  user_id: number | null;
  device_id: string | null;
  success: boolean;
};

export interface LoginLogRow {
  id: number;
  tenant_id: number | null;
  user_id: number | null;
  username: string;
  login_type: string;
  success: boolean;
  reason: string | null;
  ip: string | null;
  location: string | null;
  device: string | null;
  os: string | null;
  browser: string | null;
  device_id: string | null;
  new_device: boolean;
  session_id: number | null;
  created_at: Date;
}

const COLUMNS = [
  'id',
  'tenant_id',
  'user_id',
  'username',
  'login_type',
  'success',
  'reason',
  'ip',
  'location',
  'device',
  'os',
  'browser',
  'device_id',
  'new_device',
  'session_id',
  'created_at',
] as const;

/**
 * Stores one login event, at most once per event id, in one transaction. A successful login
 * makes its device known; `new_device` is whether the device id was unknown for the user before
 * this event (false without a device id or user). Returns false when the event was already stored.
 */
export async function insertLoginLog(db: LoginLogDb, log: NewLoginLog): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const inserted = await trx
      .insertInto('audit_login_logs')
      .values(log)
      .onConflict((oc) => oc.column('event_id').doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!inserted) return false;
    if (log.user_id === null || log.tenant_id === null || !log.device_id) return true;
    let isNew: boolean;
    if (log.success) {
      const added = await trx
        .insertInto('audit_login_devices')
        .values({ user_id: log.user_id, device_id: log.device_id, tenant_id: log.tenant_id })
        .onConflict((oc) => oc.columns(['user_id', 'device_id']).doNothing())
        .returning('user_id')
        .executeTakeFirst();
      isNew = added !== undefined;
    } else {
      const known = await trx
        .selectFrom('audit_login_devices')
        .select('user_id')
        .where('user_id', '=', log.user_id)
        .where('device_id', '=', log.device_id)
        .executeTakeFirst();
      isNew = known === undefined;
    }
    if (isNew) {
      await trx
        .updateTable('audit_login_logs')
        .set({ new_device: true })
        .where('id', '=', inserted.id)
        .execute();
    }
    return true;
  });
}

function filtered(db: LoginLogDb, tenantId: number, filter: LoginLogFilter) {
  let query = db.selectFrom('audit_login_logs').where('tenant_id', '=', tenantId);
  if (filter.username) query = query.where('username', '=', filter.username);
  if (filter.success !== undefined) query = query.where('success', '=', filter.success);
  if (filter.login_type) query = query.where('login_type', '=', filter.login_type);
  if (filter.ip) query = query.where('ip', '=', filter.ip);
  if (filter.user_id !== undefined) query = query.where('user_id', '=', filter.user_id);
  if (filter.start_time) query = query.where('created_at', '>=', new Date(filter.start_time));
  if (filter.end_time) query = query.where('created_at', '<=', new Date(filter.end_time));
  return query;
}

/** One page of the tenant's login logs, newest first, and the total. */
export async function listLoginLogs(
  db: LoginLogDb,
  tenantId: number,
  filter: LoginLogFilter,
  page: Page,
): Promise<{ rows: LoginLogRow[]; total: number }> {
  const [rows, count] = await Promise.all([
    filtered(db, tenantId, filter)
      .select(COLUMNS)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(page.pageSize)
      .offset(page.offset)
      .execute(),
    filtered(db, tenantId, filter)
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.total) };
}

/** The user's two newest successful logins (the current one and the one before it). */
export function lastSuccessfulLogins(
  db: LoginLogDb,
  tenantId: number,
  userId: number,
): Promise<LoginLogRow[]> {
  return db
    .selectFrom('audit_login_logs')
    .select(COLUMNS)
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .where('success', '=', true)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(2)
    .execute();
}

export async function countLoginLogs(db: LoginLogDb, tenantId: number) {
  const totals = await db
    .selectFrom('audit_login_logs')
    .where('tenant_id', '=', tenantId)
    .select([
      sql<number>`count(*)`.as('total'),
      sql<number>`count(*) FILTER (WHERE success)`.as('success'),
      sql<number>`count(DISTINCT user_id)`.as('unique_users'),
    ])
    .executeTakeFirstOrThrow();
  const byType = await db
    .selectFrom('audit_login_logs')
    .where('tenant_id', '=', tenantId)
    .select(['login_type', sql<number>`count(*)`.as('count')])
    .groupBy('login_type')
    .orderBy('login_type')
    .execute();
  return {
    total: Number(totals.total),
    success: Number(totals.success),
    uniqueUsers: Number(totals.unique_users),
    byType: byType.map((r) => ({ type: r.login_type, count: Number(r.count) })),
  };
}

/** Successes and failures per UTC day since `since` (a UTC midnight). */
export async function countLoginLogsByDay(db: LoginLogDb, tenantId: number, since: Date) {
  const rows = await db
    .selectFrom('audit_login_logs')
    .where('tenant_id', '=', tenantId)
    .where('created_at', '>=', since)
    .select([
      sql<string>`to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD')`.as('date'),
      sql<number>`count(*) FILTER (WHERE success)`.as('success'),
      sql<number>`count(*) FILTER (WHERE NOT success)`.as('failed'),
    ])
    .groupBy(sql`1`)
    .execute();
  return rows.map((r) => ({ date: r.date, success: Number(r.success), failed: Number(r.failed) }));
}

/** Deletes the tenant's login logs created before `before`; returns how many. */
export async function deleteLoginLogsBefore(
  db: LoginLogDb,
  tenantId: number,
  before: Date,
): Promise<number> {
  const result = await db
    .deleteFrom('audit_login_logs')
    .where('tenant_id', '=', tenantId)
    .where('created_at', '<', before)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
