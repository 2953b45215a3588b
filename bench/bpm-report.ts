/** The Markdown report of `npm run bench:bpm` (stdout), with the targets MET or NOT MET. */
import { percentile, type LoadFigures } from './bpm-client.js';
import type { CpuUse, ProfileSummary } from './bpm-cpu.js';
import type { PgbenchFigures } from './bpm-pgbench.js';
import type { TableCounts, TodoFigures } from './bpm-todo.js';
import { mixedReport, type MixedFigures } from './bpm-mixed.js';

/** What the platform and PostgreSQL spent across one measured window. */
export interface Resources {
  cpu: CpuUse;
  /** SQL statements the platform sent (BEGIN and COMMIT included). */
  statements: number;
  /** Their mean round trip as the platform saw it, ms. */
  statementMs: number;
  /** Event-loop utilisation of the platform process, 0..1. */
  eventLoop: number;
  flows: number;
}

export interface Report {
  date: string;
  machine: string;
  node: string;
  postgres: string;
  servers: { database: string; cache: string; stream: string; poolSize: number };
  config: {
    warmupS: number;
    durationS: number;
    tasks: number;
    todoS: number;
    todoPageSize: number;
    todoPending: number;
    profileS: number;
  };
  loads: Array<{ figures: LoadFigures; resources: Resources }>;
  baselines: PgbenchFigures[];
  profile: (ProfileSummary & { path: string }) | undefined;
  fillS: number;
  counts: TableCounts;
  plans: Array<{ sql: string; parameters: readonly unknown[]; plan: string }>;
  todo: TodoFigures[];
  /** The mixed load, when it ran. */
  mixed: MixedFigures | undefined;
  /** One flow's requests and the statements each made the platform send. */
  trace: Array<{ request: string; statements: string[] }>;
  /** Rows in audit_operation_logs at the end; null when the tree under test has no such table. */
  operationLogRows: number | null;
  /** Statements per second the platform sends with no request in flight (background jobs). */
  idleStatementsPerS: number;
  /** Phases measured while other processes kept the machine busy. */
  noisy: string[];
}

const f = (x: number, digits = 1) =>
  Number.isFinite(x)
    ? x.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })
    : '–';
const pct = (x: number) => `${f(x * 100, 0)} %`;
const met = (ok: boolean) => (ok ? '**MET**' : '**NOT MET**');
const table = (head: string[], rows: string[][]) =>
  [
    `| ${head.join(' | ')} |`,
    `|${head.map((h, i) => (i === 0 ? '---' : '---:')).join('|')}|`,
    ...rows.map((r) => `| ${r.join(' | ')} |`),
  ].join('\n');

export function printReport(r: Report): void {
  const out: string[] = [];
  const say = (...lines: string[]) => out.push(...lines);
  const c = r.config;
  say(
    `## BPM (npm run bench:bpm), ${r.date.slice(0, 10)}`,
    '',
    `Run ${r.date}; machine: ${r.machine}, Node ${r.node}, PostgreSQL ${r.postgres} on the same ` +
      `machine; database ${r.servers.database} (pool ${r.servers.poolSize} connections), cache ` +
      `${r.servers.cache}, stream ${r.servers.stream}. Platform all-in-one in a child process, ` +
      `load generator in the parent; everything through the gateway with bearer tokens. ` +
      `${c.durationS} s measured after ${c.warmupS} s warm-up per level.`,
    '',
    '### Throughput: start → approve n1 → approve n2 (each request one transaction)',
    '',
  );
  const pgbenchMean = r.baselines.reduce((a, b) => a + b.tps, 0) / r.baselines.length;
  say(
    table(
      ['load', 'clients', 'req/s', 'flows/s', 'p50 ms', 'p95 ms', 'p99 ms', 'errors'],
      [
        ...r.loads.map(({ figures: l }) => [
          'BPM flow',
          String(l.clients),
          f(l.requests / l.seconds),
          f(l.flows / l.seconds),
          f(percentile(l.latencies, 50)),
          f(percentile(l.latencies, 95)),
          f(percentile(l.latencies, 99)),
          String(l.errors),
        ]),
        ...r.baselines.map((b, i) => [
          `pgbench TPC-B-like (${i === 0 ? 'before' : 'after'})`,
          '8',
          `${f(b.tps)} tps`,
          '',
          `avg ${f(b.latencyMs, 2)}`,
          '',
          '',
          '',
        ]),
      ],
    ),
    '',
    'Per request kind (p50 / p99 ms):',
    '',
    table(
      ['clients', 'start p50', 'start p99', 'approve p50', 'approve p99'],
      r.loads.map(({ figures: l }) => [
        String(l.clients),
        f(percentile(l.startMs, 50)),
        f(percentile(l.startMs, 99)),
        f(percentile(l.approveMs, 50)),
        f(percentile(l.approveMs, 99)),
      ]),
    ),
    '',
    'Where the time goes (CPU from /proc over the measured window; statements counted in the platform):',
    '',
    table(
      [
        'clients',
        'platform CPU ms/flow',
        'PostgreSQL CPU ms/flow',
        'platform core use',
        'event loop busy',
        'PostgreSQL core use',
        'load generator core use',
        'other processes core use',
        'machine busy',
        'SQL statements/flow',
        'statement round trip ms',
      ],
      r.loads.map(({ figures: l, resources: x }) => [
        String(l.clients),
        f((x.cpu.platform * 1000) / x.flows, 2),
        f((x.cpu.postgres * 1000) / x.flows, 2),
        pct(x.cpu.platform / x.cpu.seconds),
        pct(x.eventLoop),
        pct(x.cpu.postgres / x.cpu.seconds),
        pct(x.cpu.loadGenerator / x.cpu.seconds),
        pct(
          x.cpu.machineBusy * x.cpu.cores -
            (x.cpu.platform + x.cpu.postgres + x.cpu.loadGenerator) / x.cpu.seconds,
        ),
        pct(x.cpu.machineBusy),
        f(x.statements / x.flows, 1),
        f(x.statementMs, 2),
      ]),
    ),
    '',
  );
  const at8 = r.loads.find((l) => l.figures.clients === 8)?.figures;
  if (at8) {
    const rps = at8.requests / at8.seconds;
    const p99 = percentile(at8.latencies, 99);
    say(
      `- BPM req/s at 8 clients ${f(rps)} vs 0.3 × pgbench ${f(pgbenchMean)} tps = ` +
        `${f(0.3 * pgbenchMean)} (ratio ${f(rps / pgbenchMean, 2)}×): ${met(rps >= 0.3 * pgbenchMean)}`,
      `- p99 at 8 clients ${f(p99)} ms (target < 50 ms): ${met(p99 < 50)}`,
    );
  }
  if (r.loads.some((l) => l.figures.errors > 0))
    say('- WARNING: some flow requests failed; the figures are suspect');
  if (r.noisy.length > 0)
    say(`- WARNING: other processes kept the machine busy during: ${r.noisy.join(', ')}`);
  say(
    `- With no request in flight the platform sends ${f(r.idleStatementsPerS)} statements/s ` +
      '(background jobs and pollers); they are included in the per-flow counts above.',
    '',
    "SQL statements per request: one flow, then one todo read; in order (a background poller's " +
      'statements show up too when it ran during the request):',
    '',
  );
  for (const t of r.trace) {
    // In order; a statement repeated back to back is shown once with its count.
    const runs: Array<[string, number]> = [];
    for (const s of t.statements) {
      const shape = s.length > 110 ? `${s.slice(0, 110)}…` : s;
      const last = runs[runs.length - 1];
      if (last && last[0] === shape) last[1]++;
      else runs.push([shape, 1]);
    }
    say(`- ${t.request}: ${t.statements.length} statements`);
    for (const [shape, n] of runs) say(`  - ${n > 1 ? `${n} × ` : ''}\`${shape}\``);
  }
  if (r.profile) {
    say(
      '',
      `CPU profile of the platform process (${c.profileS} s at 8 clients, separate run; ` +
        `${r.profile.samples} non-idle samples; self time):`,
      '',
      table(
        ['package / source', 'share'],
        r.profile.byCategory.map(([k, v]) => [k, pct(v)]),
      ),
      '',
      table(
        ['function', 'share'],
        r.profile.byFunction.map(([k, v]) => [`\`${k}\``, pct(v)]),
      ),
      '',
      'Samples with a frame of the source folder on the stack (synchronous stacks only: work ' +
        'resumed after an `await` is not attributed to its caller, so these are lower bounds):',
      '',
      table(
        ['source folder', 'inclusive share'],
        r.profile.inclusive.map(([k, v]) => [k, pct(v)]),
      ),
    );
  }
  if (r.mixed) {
    say(
      '',
      '### Mixed load: 60 % reads, 30 % approvals, 10 % starts, every request operation-logged',
      '',
      ...mixedReport(r.mixed),
    );
  }
  say(
    '',
    `### Todo list at scale: GET /api/v1/bpm/tasks/todo (page_size ${c.todoPageSize})`,
    '',
    `bpm_tasks: ${r.counts.tasks.toLocaleString('en-US')} rows (${r.counts.pending.toLocaleString('en-US')} pending, ` +
      `${r.counts.users.toLocaleString('en-US')} distinct assignees), bpm_instances: ` +
      `${r.counts.instances.toLocaleString('en-US')} rows; filled and analysed in ${f(r.fillS, 0)} s. ` +
      `The measured user has exactly ${c.todoPending} pending tasks. ${c.todoS} s per level.`,
    '',
    table(
      ['clients', 'req/s', 'p50 ms', 'p95 ms', 'p99 ms', 'errors', 'p99 < 20 ms'],
      r.todo.map((t) => [
        t.label,
        f(t.rps),
        f(t.p50, 2),
        f(t.p95, 2),
        f(t.p99, 2),
        String(t.errors),
        met(t.p99 < 20),
      ]),
    ),
    '',
  );
  const usesIndex = r.plans.length > 0 && r.plans.every((p) => p.plan.includes('bpm_tasks_todo'));
  say(
    `Partial index bpm_tasks_todo used by every todo statement: ${usesIndex ? 'yes' : '**no**'}`,
    '',
  );
  for (const p of r.plans)
    say(
      '```sql',
      `-- parameters: ${JSON.stringify(p.parameters)}`,
      p.sql,
      '```',
      '',
      '```',
      p.plan,
      '```',
      '',
    );
  say(
    r.operationLogRows === null
      ? 'Operation logs: none. The tree under test has no audit_operation_logs table yet (a ' +
          'later issue), so these figures carry no per-request log write.'
      : `Operation logs: the tree under test writes them; audit_operation_logs held ` +
          `${r.operationLogRows.toLocaleString('en-US')} rows at the end of the run.`,
  );
  console.log(out.join('\n'));
}
