/**
 * The monitor's calls (services' health, job heartbeats, metric trends, alert rules and alerts)
 * and the edge certificates of the system service, as TanStack Query hooks over the generated
 * client, so the monitor page never calls the API itself and every change refreshes what it
 * touches. Health and heartbeats ask again by themselves every 15 s.
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, data } from './client';
import type { operations } from './schema';

type Json<R> = R extends { content: { 'application/json': { data: infer D } } } ? D : never;
type Ok<O> = O extends { responses: { 200: infer R } } ? Json<R> : never;
type Body<O> = O extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;
type Query<O> = O extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;

export type ServiceHealth = Ok<operations['getMonitorServices']>[number];
export type JobHeartbeat = Ok<operations['getMonitorJobsHeartbeats']>[number];
export type Trends = Ok<operations['getMonitorMetricsTrends']>;
export type TrendSeries = Trends['series'][number];
export type TrendRange = Trends['range'];
export type AlertRule = Ok<operations['getMonitorAlertRulesById']>;
export type AlertRuleInput = Body<operations['postMonitorAlertRules']>;
export type MetricName = AlertRuleInput['metric'];
export type Alert = Ok<operations['getMonitorAlerts']>['list'][number];
export type AlertQuery = Query<operations['getMonitorAlerts']>;
export type Certificate = Ok<operations['getSystemCertificates']>['list'][number];
export type CertificateQuery = Query<operations['getSystemCertificates']>;
export type CertificateInput = Body<operations['postSystemCertificates']>;

/** The ranges the trends cover, shortest first. */
export const TREND_RANGES: readonly TrendRange[] = ['1h', '24h', '7d'];

/**
 * The metrics the API records and an alert rule may watch, in the order the page shows them;
 * `satisfies` keeps the list in step with the API's own (a metric the API drops fails to build).
 */
export const METRICS = [
  'server.cpu_percent',
  'server.memory_percent',
  'server.event_loop_delay_ms',
  'db.latency_ms',
  'db.pool_in_use',
  'db.pool_waiting',
  'cache.latency_ms',
  'service.request_rate',
  'service.error_rate',
  'service.outbox_pending',
  'service.outbox_dead',
] as const satisfies readonly MetricName[];

/** Per-service metrics name a service; the others are the platform's. */
export const isServiceMetric = (metric: string) => metric.startsWith('service.');

/** How often the health and heartbeat lists ask again while the page is open. */
export const HEALTH_REFRESH_MS = 15_000;

/** Every key starts with `monitor` and its area, so a change refreshes exactly its area. */
export const monitorKeys = {
  area: (area: MonitorArea) => ['monitor', area] as const,
  list: (area: MonitorArea, query: object) => ['monitor', area, 'list', query] as const,
  services: ['monitor', 'services'] as const,
  heartbeats: ['monitor', 'heartbeats'] as const,
  trends: (range: TrendRange) => ['monitor', 'trends', range] as const,
};
export type MonitorArea = 'rules' | 'alerts' | 'certificates';

const id = (value: number) => ({ params: { path: { id: value } } });
/** A call whose answer carries nothing to read (a delete): only its failure matters. */
async function done(call: Promise<unknown>): Promise<void> {
  await call;
}

/** Each service's readiness probe, asked again every 15 s. */
export function useServiceHealth(enabled = true) {
  return useQuery({
    queryKey: monitorKeys.services,
    queryFn: () => data(api.GET('/api/v1/monitor/services')),
    refetchInterval: HEALTH_REFRESH_MS,
    enabled,
  });
}

/** Every job's last heartbeat, asked again every 15 s. */
export function useJobHeartbeats(enabled = true) {
  return useQuery({
    queryKey: monitorKeys.heartbeats,
    queryFn: () => data(api.GET('/api/v1/monitor/jobs/heartbeats')),
    refetchInterval: HEALTH_REFRESH_MS,
    enabled,
  });
}

/** Every metric's samples over the range, bucketed by the server; asked again every minute. */
export function useMetricTrends(range: TrendRange) {
  return useQuery({
    queryKey: monitorKeys.trends(range),
    queryFn: () =>
      data(api.GET('/api/v1/monitor/metrics/trends', { params: { query: { range } } })),
    placeholderData: keepPreviousData,
    refetchInterval: 60_000,
  });
}

/** A page of the alert rules, newest first. */
export function useAlertRules(query: { page: number; page_size: number }) {
  return useQuery({
    queryKey: monitorKeys.list('rules', query),
    queryFn: () => data(api.GET('/api/v1/monitor/alert-rules', { params: { query } })),
    placeholderData: keepPreviousData,
  });
}

/** A page of the alerts under the filters, newest first. */
export function useAlerts(query: AlertQuery, enabled = true) {
  return useQuery({
    queryKey: monitorKeys.list('alerts', query),
    queryFn: () => data(api.GET('/api/v1/monitor/alerts', { params: { query } })),
    placeholderData: keepPreviousData,
    refetchInterval: HEALTH_REFRESH_MS,
    enabled,
  });
}

/** A page of the edge certificates, soonest to expire first. */
export function useCertificates(query: CertificateQuery, enabled = true) {
  return useQuery({
    queryKey: monitorKeys.list('certificates', query),
    queryFn: () => data(api.GET('/api/v1/system/certificates', { params: { query } })),
    placeholderData: keepPreviousData,
    enabled,
  });
}

/** The calls the page changes things with. */
export const monitorCalls = {
  createRule: (body: AlertRuleInput) => data(api.POST('/api/v1/monitor/alert-rules', { body })),
  updateRule: (v: { id: number; body: Partial<AlertRuleInput> }) =>
    data(api.PUT('/api/v1/monitor/alert-rules/{id}', { ...id(v.id), body: v.body })),
  deleteRule: (ruleId: number) => done(api.DELETE('/api/v1/monitor/alert-rules/{id}', id(ruleId))),
  uploadCertificate: (body: CertificateInput) =>
    data(api.POST('/api/v1/system/certificates', { body })),
  deleteCertificate: (certId: number) =>
    done(api.DELETE('/api/v1/system/certificates/{id}', id(certId))),
};

/**
 * A change in some areas: on success every query of the areas named is read again (a deleted
 * rule resolves its alert, so rules and alerts go together).
 */
export function useMonitorMutation<V, R>(fn: (v: V) => Promise<R>, areas: readonly MonitorArea[]) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () =>
      Promise.all(areas.map((a) => client.invalidateQueries({ queryKey: monitorKeys.area(a) }))),
  });
}
