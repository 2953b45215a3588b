/** The HTTP request counters a service's `/metrics` exposes (src/platform/metrics). */
export interface RequestCounters {
  requests: number;
  /** Requests answered with a 5xx. */
  errors: number;
}

const COUNT_SERIES = 'http_request_duration_seconds_count{';
/** Requests that are the monitoring itself: not the service's traffic. */
const OWN_ROUTES = new Set(['/metrics', '/health/ready']);

/** One label's value in a series' label set (no nested quotes in the values we read). */
function label(labels: string, name: string): string | undefined {
  const start = labels.indexOf(`${name}="`);
  if (start < 0 || (start > 0 && labels[start - 1] !== ',' && labels[start - 1] !== '{')) {
    return undefined;
  }
  const from = start + name.length + 2;
  const end = labels.indexOf('"', from);
  return end < 0 ? undefined : labels.slice(from, end);
}

/**
 * Sums the request-duration histogram's `_count` series of a Prometheus text exposition: every
 * request, and those with a 5xx status. Reads line by line with indexOf (no backtracking).
 */
export function requestCounters(text: string): RequestCounters {
  const totals: RequestCounters = { requests: 0, errors: 0 };
  for (const line of text.split('\n')) {
    if (!line.startsWith(COUNT_SERIES)) continue;
    const close = line.lastIndexOf('}');
    if (close < 0) continue;
    const labels = line.slice(COUNT_SERIES.length - 1, close + 1);
    const value = Number(
      line
        .slice(close + 1)
        .trim()
        .split(' ')[0],
    );
    if (!Number.isFinite(value)) continue;
    if (OWN_ROUTES.has(label(labels, 'route') ?? '')) continue;
    totals.requests += value;
    if ((label(labels, 'status') ?? '').startsWith('5')) totals.errors += value;
  }
  return totals;
}

/** The rows of a service's outboxes waiting for delivery, and those given up (dead). */
export interface OutboxRows {
  pending: number;
  dead: number;
}

const OUTBOX_SERIES = '_outbox_rows{';
const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;

/**
 * Sums the `<table>_outbox_rows{status}` gauges of a Prometheus text exposition (bpm's and
 * audit's outboxes, src/platform/notify/outbox.ts); undefined when the service has none.
 */
export function outboxRows(text: string): OutboxRows | undefined {
  let found: OutboxRows | undefined;
  for (const line of text.split('\n')) {
    const open = line.indexOf(OUTBOX_SERIES);
    // The series' own name ends in `_outbox_rows`: not a label value of another series.
    if (open <= 0 || !METRIC_NAME.test(line.slice(0, open))) continue;
    const close = line.lastIndexOf('}');
    if (close < open) continue;
    const status = label(line.slice(open + OUTBOX_SERIES.length - 1, close + 1), 'status');
    const value = Number(
      line
        .slice(close + 1)
        .trim()
        .split(' ')[0],
    );
    if ((status !== 'pending' && status !== 'dead') || !Number.isFinite(value)) continue;
    found ??= { pending: 0, dead: 0 };
    found[status] += value;
  }
  return found;
}

/**
 * Rates between two readings `elapsedSeconds` apart: requests per second and the 5xx share. A
 * counter lower than before means the service restarted: the new reading is the delta.
 */
export function requestRates(
  previous: RequestCounters,
  current: RequestCounters,
  elapsedSeconds: number,
): { requestRate: number; errorRate: number } {
  const reset = current.requests < previous.requests || current.errors < previous.errors;
  const requests = reset ? current.requests : current.requests - previous.requests;
  const errors = reset ? current.errors : current.errors - previous.errors;
  return {
    requestRate: elapsedSeconds > 0 ? requests / elapsedSeconds : 0,
    errorRate: requests > 0 ? errors / requests : 0,
  };
}
