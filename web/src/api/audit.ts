/**
 * The audit calls (operation logs, login logs, the business audit and its chain check, their
 * CSV exports and clears) as TanStack Query hooks over the generated client, so the audit pages
 * never call the API themselves and a clear refreshes the lists and stats it empties.
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, data } from './client';
import type { operations } from './schema';
import type { Ok, Query } from './schemaTypes';

export type OperationLogQuery = Query<operations['getOperationLogs']>;
export type OperationLog = Ok<operations['getOperationLogs']>['list'][number];
export type OperationLogDetail = Ok<operations['getOperationLogsById']>;
export type OperationStats = Ok<operations['getOperationLogsStats']>;
export type StatsQuery = Query<operations['getOperationLogsStats']>;
export type LoginLogQuery = Query<operations['getLoginLogs']>;
export type LoginLog = Ok<operations['getLoginLogs']>['list'][number];
export type LoginStats = Ok<operations['getLoginLogsStats']>;
export type LoginTrendDay = Ok<operations['getLoginLogsTrend']>[number];
export type BusinessAuditQuery = Query<operations['getLogsAudit']>;
export type BusinessAuditPage = Ok<operations['getLogsAudit']>;
export type BusinessAuditRow = BusinessAuditPage['list'][number];
export type ChainVerification = Ok<operations['getLogsAuditVerify']>;

/** Which log a clear or an export is about. */
export type LogKind = 'operations' | 'logins' | 'business';

/** Every key starts with `audit` and its log, so a clear refreshes exactly that log. */
export const auditKeys = {
  log: (kind: LogKind) => ['audit', kind] as const,
  list: (kind: LogKind, query: object) => ['audit', kind, 'list', query] as const,
  detail: (id: number) => ['audit', 'operations', 'detail', id] as const,
  stats: (kind: LogKind, query: object) => ['audit', kind, 'stats', query] as const,
  trend: ['audit', 'logins', 'trend'] as const,
  verify: ['audit', 'business', 'verify'] as const,
};

/** A page of the operation logs under the filters. */
export function useOperationLogs(query: OperationLogQuery) {
  return useQuery({
    queryKey: auditKeys.list('operations', query),
    queryFn: () => data(api.GET('/api/v1/operation-logs', { params: { query } })),
    placeholderData: keepPreviousData,
  });
}

/** One operation log entry with its (masked) request and response bodies; idle without an id. */
export function useOperationLog(id: number | null) {
  return useQuery({
    queryKey: auditKeys.detail(id ?? 0),
    queryFn: () =>
      data(api.GET('/api/v1/operation-logs/{id}', { params: { path: { id: id ?? 0 } } })),
    enabled: id !== null,
  });
}

/** Totals, errors, latency and the busiest modules, statuses and paths of the time range. */
export function useOperationStats(query: StatsQuery) {
  return useQuery({
    queryKey: auditKeys.stats('operations', query),
    queryFn: () => data(api.GET('/api/v1/operation-logs/stats', { params: { query } })),
    placeholderData: keepPreviousData,
  });
}

/** A page of the login logs under the filters. */
export function useLoginLogs(query: LoginLogQuery) {
  return useQuery({
    queryKey: auditKeys.list('logins', query),
    queryFn: () => data(api.GET('/api/v1/login-logs', { params: { query } })),
    placeholderData: keepPreviousData,
  });
}

/** Sign-ins in all: succeeded, failed, distinct users, and by sign-in type. */
export function useLoginStats() {
  return useQuery({
    queryKey: auditKeys.stats('logins', {}),
    queryFn: () => data(api.GET('/api/v1/login-logs/stats')),
  });
}

/** The last 7 days' successful and failed sign-ins, a day each. */
export function useLoginTrend() {
  return useQuery({
    queryKey: auditKeys.trend,
    queryFn: () => data(api.GET('/api/v1/login-logs/trend')),
  });
}

/** A page of the business audit under the filters, with its action and target-type facets. */
export function useBusinessAudit(query: BusinessAuditQuery) {
  return useQuery({
    queryKey: auditKeys.list('business', query),
    queryFn: () => data(api.GET('/api/v1/logs/audit', { params: { query } })),
    placeholderData: keepPreviousData,
  });
}

/** The business audit's hash chain checked end to end: ok, or its first broken link. */
export function useChainVerification() {
  return useQuery({
    queryKey: auditKeys.verify,
    queryFn: () => data(api.GET('/api/v1/logs/audit/verify')),
  });
}

/**
 * Deletes the log's entries older than `days` days (0: all until now) and refreshes that log's
 * lists, stats and trend. Answers how many went.
 */
export function useClearLog(kind: 'operations' | 'logins') {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (days: number) => {
      const query = { days: String(days) };
      const call =
        kind === 'operations'
          ? api.DELETE('/api/v1/operation-logs/clear', { params: { query } })
          : api.DELETE('/api/v1/login-logs/clear', { params: { query } });
      return data(call);
    },
    onSettled: () => client.invalidateQueries({ queryKey: auditKeys.log(kind) }),
  });
}

/**
 * The CSV export of the filtered log, fetched with the session's bearer token (a plain link
 * would carry none) as a Blob the page then saves; the server streams it.
 */
export function useCsvExport() {
  return useMutation({
    mutationFn: async (
      request:
        | { kind: 'operations'; query: Omit<OperationLogQuery, 'page' | 'page_size'> }
        | { kind: 'business'; query: Omit<BusinessAuditQuery, 'page' | 'page_size'> },
    ): Promise<Blob> => {
      const result =
        request.kind === 'operations'
          ? await api.GET('/api/v1/operation-logs/export', {
              params: { query: request.query },
              parseAs: 'blob',
            })
          : await api.GET('/api/v1/logs/audit/export', {
              params: { query: request.query },
              parseAs: 'blob',
            });
      return result.data as Blob;
    },
  });
}
