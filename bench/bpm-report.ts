/** The Markdown report of `npm run bench:bpm` (stdout), with the targets MET or NOT MET. */
import { percentile, type LoadFigures } from './bpm-client.js';
import type { CpuUse, ProfileSummary } from './bpm-cpu.js';
import type { PgbenchFigures } from './bpm-pgbench.js';
import type { TableCounts, TodoFigures } from './bpm-todo.js';
import { mixedReport, type MixedFigures } from './bpm-mixed.js';
import { f, pct, table } from './bpm-markdown.js';
import { layoutsReport, type LayoutRun } from './bpm-report-layouts.js';

/** What the platform and PostgreSQL spent across one measured window. */
export interface Resources {
  cpu: CpuUse;
  /**
   * SQL statements the platform sent (BEGIN and COMMIT included; background work too), counted
   * in bench/bpm-servers.ts: NaN in the processes layout, which runs the built platform.
   */
  statements: number;
  /** Their mean round trip as the platform saw it, ms (NaN likewise). */
  statementMs: number;
  /** Event-loop utilisation of the platform's processes, mean, 0..1 (NaN likewise). */
  eventLoop: number;
  flows: number;
  /** Mean statements per request of each kind (`METHOD route`), from the platform's metric. */
  perKind: Map<string, number>;
}

/** The all-in-one layout's report beyond the layouts' table: trace, profile, mixed, todo. */
export interface AllInOneDetail {
  servers: { database: string; cache: string; stream: string; poolSize: number };
  loads: Array<{ figures: LoadFigures; resources: Resources }>;
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
}

export interface Report {
  date: string;
  machine: string;
  node: string;
  postgres: string;
  config: {
    warmupS: number;
    durationS: number;
    tasks: number;
    todoS: number;
    todoPageSize: number;
    todoPending: number;
    profileS: number;
  };
  baselines: PgbenchFigures[];
  /** The flow in each layout measured, in the order run. */
  layouts: LayoutRun[];
  /** Set when the all-in-one layout ran. */
  allInOne: AllInOneDetail | undefined;
  /** Phases measured while other processes kept the machine busy. */
  noisy: string[];
}

const met = (ok: boolean) => (ok ? '**MET**' : '**NOT MET**');

export function printReport(r: Report): void {
  const c = r.config;
  const pgbenchMean = r.baselines.reduce((a, b) => a + b.tps, 0) / r.baselines.length;
  const out = [
    `## BPM (npm run bench:bpm), ${r.date.slice(0, 10)}`,
    '',
    `Run ${r.date}; machine: ${r.machine}, Node ${r.node}, PostgreSQL ${r.postgres} on the same ` +
      `machine. Each layout on its own scratch database, started and stopped in turn; the load ` +
      `generator in this process; everything through the gateway with bearer tokens. ` +
      `${c.durationS} s measured after ${c.warmupS} s warm-up per level. Baseline: pgbench ` +
      `TPC-B-like, 8 clients, ${r.baselines.map((b) => `${f(b.tps)} tps`).join(' before and ')} ` +
      `after the layouts (mean ${f(pgbenchMean)}).`,
    '',
    ...layoutsReport(r.layouts, pgbenchMean),
  ];
  if (r.layouts.some((run) => run.loads.some((l) => l.figures.errors > 0)))
    out.push('- WARNING: some flow requests failed; the figures are suspect', '');
  if (r.noisy.length > 0)
    out.push(`- WARNING: other processes kept the machine busy during: ${r.noisy.join(', ')}`, '');
  if (r.allInOne) out.push(...allInOneReport(r, r.allInOne, pgbenchMean));
  console.log(out.join('\n'));
}

/** The all-in-one layout in detail: targets, where the time goes, trace, profile, mixed, todo. */
function allInOneReport(r: Report, d: AllInOneDetail, pgbenchMean: number): string[] {
  const out: string[] = [];
  const say = (...lines: string[]) => out.push(...lines);
  const c = r.config;
  say(
    `### All-in-one in detail`,
    '',
    `Database ${d.servers.database} (pool ${d.servers.poolSize} connections), cache ` +
      `${d.servers.cache}, stream ${d.servers.stream}. Platform in a child process.`,
    '',
    '#### Throughput: start → approve n1 → approve n2 (each request one transaction)',
    '',
  );
  say(
    table(
      ['load', 'clients', 'req/s', 'flows/s', 'p50 ms', 'p95 ms', 'p99 ms', 'errors'],
      [
        ...d.loads.map(({ figures: l }) => [
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
      d.loads.map(({ figures: l }) => [
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
      d.loads.map(({ figures: l, resources: x }) => [
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
  // Issue 20's targets: the ratio to pgbench and the p99 at 8 and 32 clients.
  const at8 = d.loads.find((l) => l.figures.clients === 8)?.figures;
  if (at8) {
    const rps = at8.requests / at8.seconds;
    say(
      `- BPM req/s at 8 clients ${f(rps)} vs 0.3 × pgbench ${f(pgbenchMean)} tps = ` +
        `${f(0.3 * pgbenchMean)} (ratio ${f(rps / pgbenchMean, 2)}×): ${met(rps >= 0.3 * pgbenchMean)}`,
    );
  }
  for (const [clients, bound] of [
    [8, 20],
    [32, 60],
  ] as const) {
    const load = d.loads.find((l) => l.figures.clients === clients)?.figures;
    if (!load) continue;
    const p99 = percentile(load.latencies, 99);
    say(`- p99 at ${clients} clients ${f(p99)} ms (target < ${bound} ms): ${met(p99 < bound)}`);
  }
  say(
    `- With no request in flight the platform sends ${f(d.idleStatementsPerS)} statements/s ` +
      '(background jobs and pollers); they are included in the per-flow counts above.',
    '',
    "SQL statements per request: one flow, then one todo read; in order (a background poller's " +
      'statements show up too when it ran during the request):',
    '',
  );
  for (const t of d.trace) {
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
  if (d.profile) {
    say(
      '',
      `CPU profile of the platform process (${c.profileS} s at 8 clients, separate run; ` +
        `${d.profile.samples} non-idle samples; self time):`,
      '',
      table(
        ['package / source', 'share'],
        d.profile.byCategory.map(([k, v]) => [k, pct(v)]),
      ),
      '',
      table(
        ['function', 'share'],
        d.profile.byFunction.map(([k, v]) => [`\`${k}\``, pct(v)]),
      ),
      '',
      'Samples with a frame of the source folder on the stack (synchronous stacks only: work ' +
        'resumed after an `await` is not attributed to its caller, so these are lower bounds):',
      '',
      table(
        ['source folder', 'inclusive share'],
        d.profile.inclusive.map(([k, v]) => [k, pct(v)]),
      ),
    );
  }
  if (d.mixed) {
    say(
      '',
      '#### Mixed load: 60 % reads, 30 % approvals, 10 % starts, every request operation-logged',
      '',
      ...mixedReport(d.mixed),
    );
  }
  say(
    '',
    `#### Todo list at scale: GET /api/v1/bpm/tasks/todo (page_size ${c.todoPageSize})`,
    '',
    `bpm_tasks: ${d.counts.tasks.toLocaleString('en-US')} rows (${d.counts.pending.toLocaleString('en-US')} pending, ` +
      `${d.counts.users.toLocaleString('en-US')} distinct assignees), bpm_instances: ` +
      `${d.counts.instances.toLocaleString('en-US')} rows; filled and analysed in ${f(d.fillS, 0)} s. ` +
      `The measured user has exactly ${c.todoPending} pending tasks. ${c.todoS} s per level.`,
    '',
    table(
      ['clients', 'req/s', 'p50 ms', 'p95 ms', 'p99 ms', 'errors', 'p99 < 20 ms'],
      d.todo.map((t) => [
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
  const usesIndex = d.plans.length > 0 && d.plans.every((p) => p.plan.includes('bpm_tasks_todo'));
  say(
    `Partial index bpm_tasks_todo used by every todo statement: ${usesIndex ? 'yes' : '**no**'}`,
    '',
  );
  for (const p of d.plans)
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
    d.operationLogRows === null
      ? 'Operation logs: none. The tree under test has no audit_operation_logs table yet (a ' +
          'later issue), so these figures carry no per-request log write.'
      : `Operation logs: the tree under test writes them; audit_operation_logs held ` +
          `${d.operationLogRows.toLocaleString('en-US')} rows at the end of the run.`,
  );
  return out;
}
