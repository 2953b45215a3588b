/**
 * The audit lists' filters as the URL holds them, turned into the queries the API takes: only
 * values the server would accept are sent (a hand-edited link with `status=abc` lists everything
 * rather than failing), and one "user" box takes an id or part of a name.
 */
import type { BusinessAuditQuery, LoginLogQuery, OperationLogQuery } from '../../../api/audit';

type Filters<K extends string> = Partial<Record<K, string>>;

export const OPERATION_FILTERS = [
  'module',
  'method',
  'status',
  'user',
  'keyword',
  'start_time',
  'end_time',
] as const;
export const LOGIN_FILTERS = [
  'username',
  'success',
  'login_type',
  'ip',
  'start_time',
  'end_time',
] as const;
export const BUSINESS_FILTERS = [
  'keyword',
  'action',
  'target_type',
  'target_id',
  'actor_id',
  'start_time',
  'end_time',
] as const;

/** The HTTP methods the operation log records. */
export const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** An ISO 8601 instant of the URL, or undefined for anything that does not parse. */
export function instant(value: string | undefined): string | undefined {
  if (!value || !/^\d{4}-\d\d-\d\dT/.test(value)) return undefined;
  return Number.isNaN(Date.parse(value)) ? undefined : value;
}

function timeRange(filters: Filters<'start_time' | 'end_time'>) {
  const start = instant(filters.start_time);
  const end = instant(filters.end_time);
  return { ...(start ? { start_time: start } : {}), ...(end ? { end_time: end } : {}) };
}

const positiveId = (value: string | undefined) =>
  value && /^[1-9]\d{0,14}$/.test(value) ? Number(value) : undefined;

/** The operation-log filters: `user` is an id when all digits, else part of a username; `keyword` is part of the path. */
export function operationQuery(
  filters: Filters<(typeof OPERATION_FILTERS)[number]>,
): Omit<OperationLogQuery, 'page' | 'page_size'> {
  const method = filters.method?.toUpperCase();
  const userId = positiveId(filters.user);
  const user = filters.user?.trim();
  return {
    ...(filters.module ? { module: filters.module } : {}),
    ...(method && (METHODS as readonly string[]).includes(method) ? { method } : {}),
    ...(filters.status && /^[1-5]\d\d$/.test(filters.status) ? { status: filters.status } : {}),
    ...(userId ? { user_id: userId } : user ? { username: user } : {}),
    ...(filters.keyword ? { path: filters.keyword } : {}),
    ...timeRange(filters),
  };
}

/** The login-log filters: `success` only as `true` or `false`. */
export function loginQuery(
  filters: Filters<(typeof LOGIN_FILTERS)[number]>,
): Omit<LoginLogQuery, 'page' | 'page_size'> {
  const success = filters.success;
  return {
    ...(filters.username ? { username: filters.username } : {}),
    ...(success === 'true' || success === 'false' ? { success } : {}),
    ...(filters.login_type ? { login_type: filters.login_type } : {}),
    ...(filters.ip ? { ip: filters.ip } : {}),
    ...timeRange(filters),
  };
}

/** The business-audit filters: `actor_id` only as a positive id. */
export function businessQuery(
  filters: Filters<(typeof BUSINESS_FILTERS)[number]>,
): Omit<BusinessAuditQuery, 'page' | 'page_size'> {
  const actor = positiveId(filters.actor_id);
  return {
    ...(filters.keyword ? { keyword: filters.keyword } : {}),
    ...(filters.action ? { action: filters.action } : {}),
    ...(filters.target_type ? { target_type: filters.target_type } : {}),
    ...(filters.target_id ? { target_id: filters.target_id } : {}),
    ...(actor ? { actor_id: actor } : {}),
    ...timeRange(filters),
  };
}
