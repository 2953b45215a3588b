/**
 * The metrics the sampler records. Platform-wide ones are measured from the monitor's process
 * (its host, its database pool, its cache); per-service ones come from each service's
 * `/metrics`.
 */
export const PLATFORM_METRICS = [
  /** Host CPU busy, percent of all cores, over a short window each round. */
  'server.cpu_percent',
  /** Host memory in use, percent. */
  'server.memory_percent',
  /** The monitor process's event-loop delay since the previous round, p99, milliseconds. */
  'server.event_loop_delay_ms',
  /** A `SELECT 1` round trip, milliseconds. */
  'db.latency_ms',
  /** Connections of the monitor's pool in use (PostgreSQL only). */
  'db.pool_in_use',
  /** Queries waiting for a connection of the monitor's pool (PostgreSQL only). */
  'db.pool_waiting',
  /** A cache ping, milliseconds. */
  'cache.latency_ms',
] as const;

export const SERVICE_METRICS = [
  /** HTTP requests per second since the previous round (probes and scrapes left out). */
  'service.request_rate',
  /** The share (0–1) of those requests answered with a 5xx. */
  'service.error_rate',
  /** Outbox rows waiting for delivery (services with an outbox: bpm, audit). */
  'service.outbox_pending',
  /** Outbox rows given up after their last attempt: events their receiver never took. */
  'service.outbox_dead',
] as const;

export type MetricName = (typeof PLATFORM_METRICS)[number] | (typeof SERVICE_METRICS)[number];
export const METRIC_NAMES: readonly MetricName[] = [...PLATFORM_METRICS, ...SERVICE_METRICS];
export const isServiceMetric = (metric: string) =>
  (SERVICE_METRICS as readonly string[]).includes(metric);
