import { describe, expect, it } from 'vitest';
import { outboxRows, requestCounters, requestRates } from './prom-text.js';

const EXPOSITION = `# HELP http_request_duration_seconds HTTP request latency by route and status
# TYPE http_request_duration_seconds histogram
http_request_duration_seconds_bucket{le="0.001",method="GET",route="/api/v1/users",status="200",service="identity"} 3
http_request_duration_seconds_count{method="GET",route="/api/v1/users",status="200",service="identity"} 40
http_request_duration_seconds_sum{method="GET",route="/api/v1/users",status="200",service="identity"} 0.4
http_request_duration_seconds_count{method="POST",route="/api/v1/users",status="500",service="identity"} 2
http_request_duration_seconds_count{method="GET",route="/api/v1/users/:id",status="503",service="identity"} 3
http_request_duration_seconds_count{method="GET",route="/api/v1/users/:id",status="404",service="identity"} 5
http_request_duration_seconds_count{method="GET",route="/metrics",status="200",service="identity"} 9
http_request_duration_seconds_count{method="GET",route="/health/ready",status="503",service="identity"} 7
process_cpu_seconds_total{service="identity"} 12
`;

describe('requestCounters', () => {
  it('sums every request and the 5xx ones, leaving out probes and scrapes', () => {
    expect(requestCounters(EXPOSITION)).toEqual({ requests: 50, errors: 5 });
  });

  it('reads nothing from a text without the histogram', () => {
    expect(requestCounters('up 1\n\n')).toEqual({ requests: 0, errors: 0 });
  });
});

describe('requestRates', () => {
  it('turns counter deltas into requests per second and a 5xx share', () => {
    expect(requestRates({ requests: 100, errors: 1 }, { requests: 160, errors: 4 }, 60)).toEqual({
      requestRate: 1,
      errorRate: 0.05,
    });
  });

  it('takes a lower counter as a restart: the new reading is the delta', () => {
    expect(requestRates({ requests: 500, errors: 9 }, { requests: 30, errors: 3 }, 60)).toEqual({
      requestRate: 0.5,
      errorRate: 0.1,
    });
  });

  it('gives a zero error share when no request came', () => {
    expect(requestRates({ requests: 7, errors: 1 }, { requests: 7, errors: 1 }, 60)).toEqual({
      requestRate: 0,
      errorRate: 0,
    });
  });
});

describe('outboxRows', () => {
  it('sums the pending and dead rows of every outbox gauge, leaving out other statuses', () => {
    const text = `# HELP bpm_outbox_rows Rows of bpm_outbox waiting for delivery (pending) or given up
# TYPE bpm_outbox_rows gauge
bpm_outbox_rows{status="pending",service="bpm"} 12
bpm_outbox_rows{status="dead",service="bpm"} 2
audit_notify_outbox_rows{service="audit",status="dead"} 1
audit_notify_outbox_rows{status="delivered",service="audit"} 900
http_request_duration_seconds_count{route="/x_outbox_rows{",status="dead"} 4
`;
    expect(outboxRows(text)).toEqual({ pending: 12, dead: 3 });
  });

  it('reads nothing from a service without an outbox', () => {
    expect(outboxRows(EXPOSITION)).toBeUndefined();
  });
});
