import { request } from 'undici';

/** A service's readiness is given this long, like the gateway's own probe of it. */
export const PROBE_TIMEOUT_MS = 3000;

export interface ServiceHealth {
  name: string;
  status: 'ready' | 'down';
  latency_ms: number;
  checked_at: string;
  /** Why it is down: the status it answered, the checks it named failing, or the transport error. */
  error?: string;
}

/** One service's `/health/ready`, at most PROBE_TIMEOUT_MS; never throws. */
export async function probeService(name: string, baseUrl: string): Promise<ServiceHealth> {
  const started = performance.now();
  const done = (error?: string): ServiceHealth => ({
    name,
    status: error === undefined ? 'ready' : 'down',
    latency_ms: Math.round(performance.now() - started),
    checked_at: new Date().toISOString(),
    ...(error !== undefined && { error }),
  });
  const signal = AbortSignal.timeout(PROBE_TIMEOUT_MS);
  try {
    const response = await request(`${baseUrl}/health/ready`, {
      signal,
      headersTimeout: PROBE_TIMEOUT_MS,
      bodyTimeout: PROBE_TIMEOUT_MS,
    });
    const text = await response.body.text();
    if (response.statusCode === 200) return done();
    return done(`HTTP ${response.statusCode}${failedChecks(text)}`);
  } catch (err) {
    return done(
      signal.aborted ? `no answer within ${PROBE_TIMEOUT_MS} ms` : (err as Error).message,
    );
  }
}

/** The checks a 503 readiness answer names (`data.failed`), as `: database, cache`. */
function failedChecks(text: string): string {
  try {
    const failed = (JSON.parse(text) as { data?: { failed?: unknown } }).data?.failed;
    return Array.isArray(failed) && failed.length > 0 ? `: ${failed.map(String).join(', ')}` : '';
  } catch {
    return '';
  }
}

/** Every service probed in parallel, in the list's order. */
export function probeServices(
  names: readonly string[],
  urlOf: (name: string) => string,
): Promise<ServiceHealth[]> {
  return Promise.all(names.map((name) => probeService(name, urlOf(name))));
}
