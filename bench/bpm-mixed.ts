/**
 * The mixed load of `npm run bench:bpm` (issue 20): closed-loop clients through the gateway for
 * several minutes, each request drawn as 60 % reads (an approver's todo list or the detail of one
 * of the client's own instances), 30 % approvals and 10 % starts. A client approves only the
 * tasks its own instances made, first in first out, so no two clients race for one task; with
 * none waiting it starts an instance instead (each start makes two approvals, so the approvals'
 * share settles a little under 30 %: the report gives the mix actually sent). The gateway records
 * an operation log of every request, as in production. Figures per minute: requests, errors,
 * p50/p99, and the platform's resident memory at the minute's end, to show a trend (a leak, a
 * growing table scan) that a 20-second window cannot.
 */
import type { Api, FlowSetup, User } from './bpm-client.js';
import { percentile } from './bpm-client.js';

export interface MinuteFigures {
  minute: number;
  requests: number;
  errors: number;
  p50: number;
  p99: number;
  /** The platform's resident set at the minute's end, MB (undefined off Linux). */
  rssMb: number | undefined;
}

export interface MixedFigures {
  clients: number;
  minutes: MinuteFigures[];
  /** Requests sent per kind over the whole run. */
  sent: { todo: number; detail: number; approve: number; start: number };
  errors: number;
  firstError: string | undefined;
}

interface Waiting {
  taskId: number;
  approver: User;
}
interface Started {
  id: number;
  tasks: { id: number; node_id: string; status: string }[];
}

/**
 * Runs `clients` mixed clients for `minutes` minutes; `rssMb` reads the platform's memory, and
 * `progress` is told each minute's figures as they close.
 */
export async function runMixed(
  setup: FlowSetup,
  clients: number,
  minutes: number,
  rssMb: () => number | undefined,
  progress: (figures: MinuteFigures) => void,
): Promise<MixedFigures> {
  const { api, key, initiators, approvers } = setup;
  const t0 = performance.now();
  const stopAt = t0 + minutes * 60_000;
  const result: MixedFigures = {
    clients,
    minutes: [],
    sent: { todo: 0, detail: 0, approve: 0, start: 0 },
    errors: 0,
    firstError: undefined,
  };
  let latencies: number[] = [];
  let errors = 0;
  const closeMinute = () => {
    const figures: MinuteFigures = {
      minute: result.minutes.length + 1,
      requests: latencies.length,
      errors,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      rssMb: rssMb(),
    };
    result.minutes.push(figures);
    progress(figures);
    latencies = [];
    errors = 0;
  };
  const minuteTimer = setInterval(closeMinute, 60_000);

  const pending = (instance: Started, node: string) =>
    instance.tasks.find((t) => t.node_id === node && t.status === 'pending');

  async function client(initiator: User, index: number) {
    const waiting: Waiting[] = [];
    const mine: number[] = [];
    const send = async <T>(
      kind: keyof MixedFigures['sent'],
      run: () => ReturnType<Api['call']>,
    ) => {
      result.sent[kind]++;
      const reply = await run();
      if (performance.now() <= stopAt) latencies.push(reply.ms);
      if (reply.status !== 200) {
        errors++;
        result.errors++;
        result.firstError ??= `${kind}: ${reply.status} ${reply.body.code} ${reply.body.message}`;
        return undefined;
      }
      return reply.body.data as T;
    };
    while (performance.now() < stopAt) {
      const draw = Math.random();
      try {
        if (draw < 0.3) {
          const approver = approvers[index % 2]!;
          await send('todo', () =>
            api.call('GET', '/api/v1/bpm/tasks/todo?page=1&page_size=10', approver.token),
          );
        } else if (draw < 0.6 && mine.length > 0) {
          const id = mine[Math.floor(Math.random() * mine.length)]!;
          await send('detail', () =>
            api.call('GET', `/api/v1/bpm/instances/${id}`, initiator.token),
          );
        } else if (draw < 0.9 && waiting.length > 0) {
          const { taskId, approver } = waiting.shift()!;
          const done = await send<{ instance: Started }>('approve', () =>
            api.call('POST', `/api/v1/bpm/tasks/${taskId}/approve`, approver.token, {
              comment: 'ok',
            }),
          );
          const next = done && pending(done.instance, 'n2');
          if (next) waiting.push({ taskId: next.id, approver: approvers[1] });
        } else {
          const started = await send<Started>('start', () =>
            api.call('POST', '/api/v1/bpm/instances', initiator.token, {
              definition_key: key,
              form: { reason: 'Mixed load', days: 1 },
            }),
          );
          const first = started && pending(started, 'n1');
          if (started && first) {
            waiting.push({ taskId: first.id, approver: approvers[0] });
            mine.push(started.id);
            if (mine.length > 50) mine.shift();
          }
        }
      } catch (err) {
        errors++;
        result.errors++;
        result.firstError ??= String(err);
      }
    }
  }

  try {
    await Promise.all(initiators.slice(0, clients).map((initiator, i) => client(initiator, i)));
  } finally {
    clearInterval(minuteTimer);
  }
  if (latencies.length > 0 && result.minutes.length < minutes) closeMinute();
  return result;
}

/**
 * The mixed load's section of the report: the minutes' table, and whether p99 and memory trend
 * upward after the first minute (warm-up): the last third's mean against the second minute's.
 */
export function mixedReport(figures: MixedFigures): string[] {
  const { sent } = figures;
  const total = sent.todo + sent.detail + sent.approve + sent.start;
  const share = (n: number) => `${((100 * n) / total).toFixed(1)} %`;
  const lines = [
    `${figures.clients} clients for ${figures.minutes.length} minutes; sent: reads ${share(sent.todo + sent.detail)} (todo ${share(sent.todo)}, detail ${share(sent.detail)}), approvals ${share(sent.approve)}, starts ${share(sent.start)}; errors ${figures.errors}${figures.firstError ? ` (first: ${figures.firstError})` : ''}.`,
    '',
    '| minute | req/s | errors | p50 ms | p99 ms | platform RSS MB |',
    '| -----: | ----: | -----: | -----: | -----: | --------------: |',
    ...figures.minutes.map(
      (m) =>
        `| ${m.minute} | ${(m.requests / 60).toFixed(1)} | ${m.errors} | ${m.p50.toFixed(1)} | ${m.p99.toFixed(1)} | ${m.rssMb?.toFixed(0) ?? 'n/a'} |`,
    ),
  ];
  const after = figures.minutes.slice(1);
  if (after.length >= 3) {
    const last = after.slice(-Math.max(1, Math.floor(after.length / 3)));
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const first = after[0]!;
    const p99Growth = mean(last.map((m) => m.p99)) / first.p99;
    const rss = last.map((m) => m.rssMb).filter((v): v is number => v !== undefined);
    const rssGrowth = first.rssMb && rss.length ? mean(rss) / first.rssMb : NaN;
    // "No upward trend": within the minute-to-minute noise of a shared two-core machine (p99
    // moves by a fifth between quiet minutes; the heap by a tenth between collections).
    const flat = figures.errors === 0 && p99Growth <= 1.25 && rssGrowth <= 1.1;
    lines.push(
      '',
      `After warm-up (minute 2 against the last third): p99 ×${p99Growth.toFixed(2)}, RSS ×${rssGrowth.toFixed(2)}, errors ${figures.errors} ` +
        `(target: p99 ≤ ×1.25, RSS ≤ ×1.10, no error): ${flat ? '**MET**' : '**NOT MET**'}.`,
    );
  }
  return lines;
}
