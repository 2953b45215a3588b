import { createServer, type Server, type ServerResponse } from 'node:http';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BpmTables } from '../../src/services/bpm/bpm.tables.js';
import { startTestPlatform, uniq, type TestPlatform } from '../helpers/platform.js';
import { until } from '../helpers/until.js';
import { businessTask } from './fixtures.js';

// RELIABILITY matrix row 10 on measured times: a callback receiver that fails, times out and
// fails again is retried with gaps that grow as base * 2^(n-1), each within its jitter (half to
// all of it), the timeout counting as a failed attempt; after the last attempt the row is dead,
// an error-level line says so, and nothing is sent again (no hot loop). The dead row is counted
// on bpm's /metrics, the monitor samples it each second, and an alert rule on it fires.

const TOKEN = 'internal-Kq7-9vX2-Lm4P-token';
const BASE_MS = 300;
const TIMEOUT_MS = 600;
const POLL_MS = 50;
const MAX_ATTEMPTS = 5;
/**
 * What may come on top of a backoff between two arrivals: the poll interval, the claim and the
 * settle statements, and a busy machine's scheduling.
 */
const SLACK_MS = POLL_MS + 450;
/** The log's and the database's clocks are read at slightly different moments. */
const CLOCK_MS = 25;

const bizType = uniq('backoff').toLowerCase();
/** Each attempt's arrival time and how it was answered. */
const arrivals: { at: number; instanceId: number }[] = [];
/** Attempt 2 gets no answer at all: the delivery times out. */
const ANSWERS: (number | 'silence')[] = [500, 'silence', 503, 500, 500];
const held: ServerResponse[] = [];
let receiver: Server;
let platform: TestPlatform;
const logs: string[] = [];

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      arrivals.push({ at: Date.now(), instanceId: JSON.parse(body).instance_id });
      const answer = ANSWERS[arrivals.length - 1] ?? 200;
      if (answer === 'silence') {
        held.push(res);
        return;
      }
      res.statusCode = answer;
      res.end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
  const port = (receiver.address() as { port: number }).port;
  platform = await startTestPlatform(
    {
      BPM_INTERNAL_TOKEN: TOKEN,
      [`BPM_CALLBACK_${bizType.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`]: `http://127.0.0.1:${port}/callback`,
      BPM_OUTBOX_POLL_INTERVAL: `${POLL_MS}ms`,
      BPM_OUTBOX_BACKOFF_BASE: `${BASE_MS}ms`,
      BPM_OUTBOX_TIMEOUT: `${TIMEOUT_MS}ms`,
      BPM_OUTBOX_MAX_ATTEMPTS: String(MAX_ATTEMPTS),
      MONITOR_SAMPLE_INTERVAL: '1s',
    },
    { logs: { write: (line: string) => void logs.push(line) } },
  );
});
afterAll(async () => {
  for (const res of held) res.destroy();
  await platform?.close();
  await new Promise((r) => receiver?.close(r));
});

/** A business instance approved at once: its terminal state writes one callback row. */
async function finishBusinessInstance(): Promise<number> {
  const admin = await platform.adminToken();
  const { instanceId, task } = await businessTask(platform, admin, bizType, TOKEN);
  const approved = await platform.call('POST', `/api/v1/bpm/tasks/${task.id}/approve`, {
    token: admin,
    body: {},
  });
  expect(approved.status).toBe(200);
  return instanceId;
}

describe('a callback receiver failing, timing out, failing again', () => {
  it('is retried with measured gaps growing within their jitter, then dead, logged, alerted on, and left alone', async () => {
    // The rule an operator sets on dead rows, before anything fails.
    const admin = await platform.adminToken();
    const me = (await platform.call('GET', '/api/v1/me', { token: admin })).body.data;
    const rule = await platform.call('POST', '/api/v1/monitor/alert-rules', {
      token: admin,
      body: {
        name: uniq('dead-callbacks'),
        metric: 'service.outbox_dead',
        service: 'bpm',
        operator: 'gt',
        threshold: 0,
        duration_seconds: 0,
        recipient_user_ids: [me.id],
      },
    });
    expect(rule.status).toBe(200);
    const instanceId = await finishBusinessInstance();
    const db = platform.kernel.database.db.withTables<BpmTables>();
    const row = () =>
      db
        .selectFrom('bpm_outbox')
        .selectAll()
        .where('kind', '=', 'callback')
        .where(sql<boolean>`(payload->>'instance_id')::bigint = ${instanceId}`)
        .executeTakeFirstOrThrow();
    const deadline = Date.now() + 20_000;
    while ((await row()).status !== 'dead' && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
    }
    const dead = await row();
    expect(dead).toMatchObject({ status: 'dead', attempts: MAX_ATTEMPTS, last_error: 'HTTP 500' });
    const times = arrivals.filter((a) => a.instanceId === instanceId).map((a) => a.at);
    expect(times).toHaveLength(MAX_ATTEMPTS);

    const lines = logs
      .map((l) => JSON.parse(l))
      .filter((l) => l.outbox_id === dead.id)
      // ISO time in the log lines: milliseconds, like the arrival times.
      .map((l) => ({ ...l, time: Date.parse(l.time) }));
    // One warning per failed attempt that is retried, logged when the failure is recorded,
    // with the jittered delay it chose; one error at the end.
    const warnings = lines.filter((l) => l.msg === 'outbox delivery failed');
    expect(warnings.map((l) => l.attempts)).toEqual([1, 2, 3, 4]);
    const exhausted = lines.filter((l) => l.msg === 'outbox delivery exhausted');
    expect(exhausted).toEqual([
      expect.objectContaining({
        level: 50,
        event_id: dead.event_id,
        attempts: MAX_ATTEMPTS,
        error: 'HTTP 500',
      }),
    ]);

    // The timed-out attempt failed no sooner than the timeout (undici's timers are coarse:
    // up to about a second later). The timer starts when the request leaves, the arrival is
    // taken once its body has come: on a busy machine tens of milliseconds later (CI saw 32).
    expect(warnings[1]!.error).toMatch(/timeout/i);
    const timedOutAfter = warnings[1]!.time - times[1]!;
    expect(timedOutAfter).toBeGreaterThanOrEqual(TIMEOUT_MS - 100);
    expect(timedOutAfter).toBeLessThan(TIMEOUT_MS + 1500);

    // Attempt n's delay is base * 2^(n-1) jittered down to half of that, and the next attempt
    // arrived that long after the failure was recorded (plus at most the slack): measured.
    for (const [i, warning] of warnings.entries()) {
      const attempt = i + 1;
      const ceiling = BASE_MS * 2 ** (attempt - 1);
      const gap = times[attempt]! - warning.time;
      const chosen = warning.retry_in_ms as number;
      expect({
        attempt,
        chosen,
        gap,
        jittered: chosen >= ceiling / 2 && chosen <= ceiling,
        waited: gap >= chosen - CLOCK_MS && gap <= chosen + SLACK_MS,
      }).toEqual({ attempt, chosen, gap, jittered: true, waited: true });
    }

    // Dead is final: nothing more reaches the receiver.
    await new Promise((r) => setTimeout(r, 4 * BASE_MS));
    expect(arrivals.filter((a) => a.instanceId === instanceId)).toHaveLength(MAX_ATTEMPTS);

    // What an operator's alert watches: the dead row counted on the bpm service's /metrics,
    // sampled by the monitor, firing the rule (no sooner than the row died) with one notice.
    const scraped = await (await fetch(`${platform.serviceUrls.bpm}/metrics`)).text();
    expect(scraped).toMatch(/^bpm_outbox_rows\{status="dead",service="bpm"\} 1$/m);
    const alert = await until('the dead-callback alert', async () => {
      const res = await platform.call(
        'GET',
        `/api/v1/monitor/alerts?rule_id=${rule.body.data.id}`,
        { token: admin },
      );
      return res.body.data.list.find((a: { notified_at: string | null }) => a.notified_at);
    });
    expect(alert).toMatchObject({ status: 'firing', metric: 'service.outbox_dead', value: 1 });
    expect(Date.parse(alert.fired_at)).toBeGreaterThanOrEqual(exhausted[0].time - CLOCK_MS);
  });
});
