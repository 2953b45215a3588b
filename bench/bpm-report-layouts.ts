/**
 * The layouts' section of the `npm run bench:bpm` report: the same flow in each layout, with
 * what a request costs in CPU, platform and PostgreSQL, so a reader can turn it into requests
 * per second per core for a machine of any size.
 */
import { percentile, type LoadFigures } from './bpm-client.js';
import type { LayoutName } from './bpm-layouts.js';
import { f, pct, table } from './bpm-markdown.js';
import type { Resources } from './bpm-report.js';

export interface LayoutRun {
  name: LayoutName;
  shape: string;
  /** Every process of the platform, by pid. */
  processes: Array<{ name: string; pid: number }>;
  poolSize: number;
  cache: string;
  stream: string;
  loads: Array<{ figures: LoadFigures; resources: Resources }>;
}

/** CPU ms per request: seconds used over requests answered in the window. */
const msPerRequest = (seconds: number, figures: LoadFigures) => (seconds * 1000) / figures.requests;

/** Mean statements of the first request kind whose `METHOD route` matches. */
function statementsOf(perKind: Map<string, number>, pattern: RegExp): number {
  for (const [key, mean] of perKind) if (pattern.test(key)) return mean;
  return NaN;
}

export function layoutsReport(runs: LayoutRun[], pgbenchTps: number): string[] {
  const rows = (fn: (run: LayoutRun, load: LayoutRun['loads'][number]) => string[]) =>
    runs.flatMap((run) => run.loads.map((load) => fn(run, load)));
  const lines = [
    '### Layouts: start → approve n1 → approve n2',
    '',
    ...runs.map(
      (run) =>
        `- **${run.name}**: ${run.shape}; database pool ${run.poolSize} connections per ` +
        `process, cache ${run.cache}, stream ${run.stream}.`,
    ),
    '',
    table(
      [
        'layout',
        'clients',
        'req/s',
        'flows/s',
        '× pgbench tps',
        'p50 ms',
        'p95 ms',
        'p99 ms',
        'errors',
      ],
      rows((run, { figures: l }) => [
        run.name,
        String(l.clients),
        f(l.requests / l.seconds),
        f(l.flows / l.seconds),
        f(l.requests / l.seconds / pgbenchTps, 2),
        f(percentile(l.latencies, 50)),
        f(percentile(l.latencies, 95)),
        f(percentile(l.latencies, 99)),
        String(l.errors),
      ]),
    ),
    '',
    'CPU per request over the measured window (from /proc: the platform summed over all its ' +
      'processes, PostgreSQL over all its backends). Requests per CPU-second = 1000 / (platform ' +
      '+ PostgreSQL ms per request): what one core buys when the load, not the clients, is the limit.',
    '',
    table(
      [
        'layout',
        'clients',
        'platform CPU ms/request',
        'PostgreSQL CPU ms/request',
        'requests per CPU-second',
        'platform core use',
        'PostgreSQL core use',
        'machine busy',
      ],
      rows((run, { figures: l, resources: x }) => {
        const platform = msPerRequest(x.cpu.platform, l);
        const postgres = msPerRequest(x.cpu.postgres, l);
        return [
          run.name,
          String(l.clients),
          f(platform, 2),
          f(postgres, 2),
          f(1000 / (platform + postgres), 0),
          pct(x.cpu.platform / x.cpu.seconds),
          pct(x.cpu.postgres / x.cpu.seconds),
          pct(x.cpu.machineBusy),
        ];
      }),
    ),
    '',
    'SQL statements per request kind (the platform’s `db_statements_per_request`, summed over ' +
      'its processes: each request’s own statements, BEGIN and COMMIT included, background jobs ' +
      'not), mean over the measured window:',
    '',
    table(
      ['layout', 'clients', 'start', 'approve (n1 and n2)', 'flow (start + 2 approvals)'],
      rows((run, { figures: l, resources: x }) => {
        const start = statementsOf(x.perKind, /^POST .*\/instances$/);
        const approve = statementsOf(x.perKind, /^POST .*\/approve$/);
        return [run.name, String(l.clients), f(start), f(approve), f(start + 2 * approve)];
      }),
    ),
    '',
    'CPU ms per request by process (replicas summed; their count in brackets):',
    '',
  ];
  const levels = [...new Set(runs.flatMap((run) => run.loads.map((l) => l.figures.clients)))];
  const byProcess: string[][] = [];
  for (const run of runs) {
    const names = [...new Set(run.processes.map((p) => p.name))];
    for (const name of names) {
      const pids = run.processes.filter((p) => p.name === name).map((p) => p.pid);
      byProcess.push([
        `${run.name}: ${pids.length > 1 ? `${name} (${pids.length})` : name}`,
        ...levels.map((clients) => {
          const load = run.loads.find((l) => l.figures.clients === clients);
          if (!load) return '';
          const seconds = pids.reduce(
            (a, pid) => a + (load.resources.cpu.perProcess.get(pid) ?? 0),
            0,
          );
          return f(msPerRequest(seconds, load.figures), 2);
        }),
      ]);
    }
  }
  lines.push(table(['layout: process', ...levels.map((c) => `${c} clients`)], byProcess), '');
  return lines;
}
