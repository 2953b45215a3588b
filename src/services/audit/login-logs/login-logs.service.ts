import type { Principal } from '../../../platform/auth/principal.js';
import { pageResult, parsePage } from '../../../platform/http/envelope.js';
import { AppError, ERROR_CODES } from '../../../platform/errors.js';
import {
  countLoginLogs,
  countLoginLogsByDay,
  deleteLoginLogsBefore,
  lastSuccessfulLogins,
  listLoginLogs,
  type LoginLogDb,
  type LoginLogRow,
} from './login-logs.repo.js';
import type { ListLoginLogsQuery, LoginLogView } from './login-logs.schema.js';

const DAY_MS = 24 * 3600 * 1000;
export const TREND_DAYS = 7;

export interface LoginLogsServiceOptions {
  db: LoginLogDb;
  /** Default `Date.now`. */
  now?: () => number;
}

export function toLoginLogView(row: LoginLogRow): LoginLogView {
  return {
    id: row.id,
    tenant_id: row.tenant_id,
    user_id: row.user_id,
    username: row.username,
    login_type: row.login_type,
    success: row.success,
    reason: row.reason,
    ip: row.ip,
    location: row.location,
    device: row.device,
    os: row.os,
    browser: row.browser,
    device_id: row.device_id,
    new_device: row.new_device,
    created_at: new Date(row.created_at).toISOString(),
  };
}

/** `days` of the clear request: an integer ≥ 0 written in digits, else 400 (40000). */
export function parseDays(raw: string | undefined): number {
  if (raw === undefined || !/^\d{1,6}$/.test(raw)) {
    throw new AppError(ERROR_CODES.BAD_REQUEST, 'days must be an integer ≥ 0', {
      fields: [{ field: 'days', rule: 'format', message: 'must be an integer ≥ 0' }],
    });
  }
  return Number(raw);
}

/** Reading and clearing the login logs of the caller's tenant (every query tenant-scoped). */
export class LoginLogsService {
  private readonly now: () => number;

  constructor(private readonly o: LoginLogsServiceOptions) {
    this.now = o.now ?? Date.now;
  }

  async list(principal: Principal, query: ListLoginLogsQuery) {
    const page = parsePage(query);
    const { rows, total } = await listLoginLogs(this.o.db, principal.tenantId, query, page);
    return pageResult(rows.map(toLoginLogView), total, page);
  }

  async mine(principal: Principal, query: { page?: string; page_size?: string }) {
    const page = parsePage(query);
    const { rows, total } = await listLoginLogs(
      this.o.db,
      principal.tenantId,
      { user_id: principal.userId },
      page,
    );
    return pageResult(rows.map(toLoginLogView), total, page);
  }

  /**
   * The successful login before the current one. The current login is the newest stored one
   * unless the event names another session (a login not yet consumed is then not skipped).
   */
  async last(principal: Principal): Promise<LoginLogView | null> {
    const [newest, previous] = await lastSuccessfulLogins(
      this.o.db,
      principal.tenantId,
      principal.userId,
    );
    if (!newest) return null;
    if (newest.session_id !== null && newest.session_id !== principal.sessionId) {
      return toLoginLogView(newest);
    }
    return previous ? toLoginLogView(previous) : null;
  }

  async stats(principal: Principal) {
    const counts = await countLoginLogs(this.o.db, principal.tenantId);
    return {
      total: counts.total,
      success: counts.success,
      failed: counts.total - counts.success,
      unique_users: counts.uniqueUsers,
      by_type: Object.fromEntries(counts.byType.map((t) => [t.type, t.count])),
    };
  }

  /** Seven UTC days, oldest first, ending today; days without logins count zero. */
  async trend(principal: Principal) {
    const today = Math.floor(this.now() / DAY_MS) * DAY_MS;
    const since = new Date(today - (TREND_DAYS - 1) * DAY_MS);
    const counted = new Map(
      (await countLoginLogsByDay(this.o.db, principal.tenantId, since)).map((d) => [d.date, d]),
    );
    return Array.from({ length: TREND_DAYS }, (_, i) => {
      const date = new Date(since.getTime() + i * DAY_MS).toISOString().slice(0, 10);
      const day = counted.get(date);
      return { date, success: day?.success ?? 0, failed: day?.failed ?? 0 };
    });
  }

  /** Deletes the tenant's logs older than `days` days (0: all of them). */
  async clear(principal: Principal, rawDays: string | undefined) {
    const days = parseDays(rawDays);
    const before = new Date(this.now() - days * DAY_MS);
    return { deleted: await deleteLoginLogsBefore(this.o.db, principal.tenantId, before) };
  }
}
