import { sql, type ColumnType, type Generated, type Insertable, type Kysely } from 'kysely';
import { jsonRecords, withoutNul } from '../../../platform/db/json-records.js';
import type { Page } from '../../../platform/http/envelope.js';
import type { LoginLogFilter } from './login-logs.schema.js';
import { enqueueNewDeviceNotices, NO_NOTICES, type NoticeChannels } from './new-device-notice.js';

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
 * Stores one login event, at most once per event id (see `insertLoginLogs`). Returns false when
 * the event was already stored.
 */
export async function insertLoginLog(
  db: LoginLogDb,
  log: NewLoginLog,
  notices: NoticeChannels = NO_NOTICES,
): Promise<boolean> {
  return (await insertLoginLogs(db, [log], notices)) > 0;
}

/** An ISO text (both drivers take arrays of text for `timestamptz[]`); now when unset. */
function timestampOf(value: Date | string | undefined): string {
  if (value === undefined) return new Date().toISOString();
  return typeof value === 'string' ? value : value.toISOString();
}

const pairKey = (userId: number, deviceId: string) => `${userId}\u0000${deviceId}`;

/**
 * Stores login events in one transaction, at most once per event id, in their stream order.
 * A successful login makes its device known; `new_device` is whether the device id was unknown
 * for the user before that event (false without a device id or user), so within one batch only
 * the first event of a new device is new. The device rows are written first, in key order, and
 * their conflicts decide what was known: two writers never both see a device as new, and never
 * wait on each other in opposite orders. With `notices` (NOTIFY_API_BASE and a token are set),
 * each stored successful sign-in from a new device enqueues a notice in the same transaction.
 * Returns how many events were stored now.
 */
export async function insertLoginLogs(
  db: LoginLogDb,
  logs: NewLoginLog[],
  notices: NoticeChannels = NO_NOTICES,
): Promise<number> {
  const ids = new Set<string>();
  // PostgreSQL text cannot hold NUL: replaced up front, so device keys match what is stored.
  const events = logs
    .map(withoutNul)
    .filter((log) => !ids.has(log.event_id) && ids.add(log.event_id));
  if (events.length === 0) return 0;
  const tracked = events.filter(
    (log): log is NewLoginLog & { user_id: number; tenant_id: number; device_id: string } =>
      log.user_id !== null && log.tenant_id !== null && !!log.device_id,
  );
  return db.transaction().execute(async (trx) => {
    const signedIn = new Map<string, { user_id: number; device_id: string; tenant_id: number }>();
    for (const log of tracked.filter((l) => l.success)) {
      const key = pairKey(log.user_id, log.device_id);
      if (!signedIn.has(key)) signedIn.set(key, log);
    }
    const added = new Set<string>();
    if (signedIn.size > 0) {
      const devices = [...signedIn.values()].sort(
        (a, b) => a.user_id - b.user_id || (a.device_id < b.device_id ? -1 : 1),
      );
      const rows = await sql<{ user_id: number; device_id: string }>`
        INSERT INTO audit_login_devices (user_id, device_id, tenant_id)
        SELECT * FROM unnest(${devices.map((d) => d.user_id)}::bigint[],
          ${devices.map((d) => d.device_id)}::text[], ${devices.map((d) => d.tenant_id)}::bigint[])
        ON CONFLICT (user_id, device_id) DO NOTHING
        RETURNING user_id, device_id`.execute(trx);
      for (const row of rows.rows) added.add(pairKey(Number(row.user_id), row.device_id));
    }
    const failedOnly = tracked.filter(
      (l) => !l.success && !signedIn.has(pairKey(l.user_id, l.device_id)),
    );
    const knownBefore = new Set<string>();
    for (const key of signedIn.keys()) if (!added.has(key)) knownBefore.add(key);
    if (failedOnly.length > 0) {
      const rows = await sql<{ user_id: number; device_id: string }>`
        SELECT d.user_id, d.device_id FROM audit_login_devices d
        JOIN unnest(${failedOnly.map((l) => l.user_id)}::bigint[],
          ${failedOnly.map((l) => l.device_id)}::text[]) AS q(user_id, device_id)
          ON d.user_id = q.user_id AND d.device_id = q.device_id`.execute(trx);
      for (const row of rows.rows) knownBefore.add(pairKey(Number(row.user_id), row.device_id));
    }
    // Walk in stream order: a successful login makes the device known to the events after it.
    const seen = knownBefore;
    const newDevice = events.map((log) => {
      if (log.user_id === null || log.tenant_id === null || !log.device_id) return false;
      const key = pairKey(log.user_id, log.device_id);
      const isNew = !seen.has(key);
      if (log.success) seen.add(key);
      return isNew;
    });
    // Absent optional values are left out of the JSON, which json_to_recordset reads as NULL.
    const records = events.map((log, k) => ({
      ...log,
      new_device: newDevice[k],
      created_at: timestampOf(log.created_at),
    }));
    // One statement and one parameter whatever the batch size (see jsonRecords).
    const inserted = await sql<{ event_id: string }>`
      INSERT INTO audit_login_logs (event_id, tenant_id, user_id, username, login_type, success,
        reason, ip, location, device, os, browser, device_id, new_device, session_id, created_at)
      SELECT * FROM json_to_recordset(${jsonRecords(records)}::json) AS r(event_id text,
        tenant_id bigint, user_id bigint, username text, login_type text, success boolean,
        reason text, ip text, location text, device text, os text, browser text, device_id text,
        new_device boolean, session_id bigint, created_at timestamptz)
      ON CONFLICT (event_id) DO NOTHING
      RETURNING event_id`.execute(trx);
    if (notices.notify || notices.inbox) {
      const stored = new Set(inserted.rows.map((r) => r.event_id));
      await enqueueNewDeviceNotices(
        trx,
        records.filter((r) => stored.has(r.event_id)),
        notices,
      );
    }
    return inserted.rows.length;
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
