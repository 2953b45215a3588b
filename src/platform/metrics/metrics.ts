import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';

/** One Prometheus registry per service, so an all-in-one process keeps their series apart. */
export interface ServiceMetrics {
  /** The service's own metrics (the process's are added by `exposition`). */
  readonly registry: Registry;
  /** The Prometheus text of `/metrics`: the service's metrics and the process's, labelled. */
  exposition(): Promise<string>;
  readonly contentType: string;
  readonly httpDuration: Histogram<'method' | 'route' | 'status'>;
  /** SQL statements each request sent (BEGIN and COMMIT included), by route. */
  readonly dbStatements: Histogram<'method' | 'route'>;
  counter(name: string, help: string, labelNames?: string[]): Counter<string>;
}

let processRegistry: Registry | undefined;

/**
 * Node's own metrics (CPU, memory, event-loop delay, GC), collected once per process: prom-client
 * starts a GC observer and an event-loop monitor for each collection and never stops them, so a
 * collection per service registry would keep every registry (and the database handles its gauges
 * read) reachable for the life of the process, after its services closed.
 */
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

export function createMetrics(service: string): ServiceMetrics {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  const nodeMetrics = processMetrics();
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
    contentType: registry.contentType,
    exposition() {
      const merged = Registry.merge([nodeMetrics, registry]);
      merged.setDefaultLabels({ service });
      return merged.metrics();
    },
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
