import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';

/** One Prometheus registry per service, so an all-in-one process keeps their series apart. */
export interface ServiceMetrics {
  readonly registry: Registry;
  readonly httpDuration: Histogram<'method' | 'route' | 'status'>;
  /** SQL statements each request sent (BEGIN and COMMIT included), by route. */
  readonly dbStatements: Histogram<'method' | 'route'>;
  counter(name: string, help: string, labelNames?: string[]): Counter<string>;
}

export function createMetrics(service: string): ServiceMetrics {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  collectDefaultMetrics({ register: registry });
  const httpDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency by route and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  const dbStatements = new Histogram({
    name: 'db_statements_per_request',
    help: 'SQL statements a request sent to the database (BEGIN and COMMIT included), by route',
    labelNames: ['method', 'route'] as const,
    buckets: [0, 1, 2, 4, 8, 12, 16, 24, 32, 48, 64, 128],
    registers: [registry],
  });
  const counters = new Map<string, Counter<string>>();
  return {
    registry,
    httpDuration,
    dbStatements,
    counter(name, help, labelNames = []) {
      let counter = counters.get(name);
      if (!counter) {
        counter = new Counter({ name, help, labelNames, registers: [registry] });
        counters.set(name, counter);
      }
      return counter;
    },
  };
}
