/**
 * Where the time goes, for `npm run bench:bpm`: CPU time of the platform's processes and of every
 * PostgreSQL process from /proc (Linux; elsewhere the figures are absent), and a summary of a
 * V8 CPU profile of the platform process (self time by package and by function).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { cpus } from 'node:os';

const TICKS_PER_S = 100; // USER_HZ: 100 on every Linux this runs on (getconf CLK_TCK).

function processTicks(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the parenthesised command name; utime and stime are fields 14 and 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
}

/** A process's resident set in MB (Linux), undefined where /proc cannot say. */
export function residentMb(pid: number): number | undefined {
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8')
      .split('\n')
      .find((l) => l.startsWith('VmRSS:'));
    return line ? Number(line.split(/\s+/)[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

function postgresPids(): number[] {
  try {
    return readdirSync('/proc')
      .filter((entry) => /^\d+$/.test(entry))
      .filter((pid) => {
        try {
          return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres';
        } catch {
          return false;
        }
      })
      .map(Number);
  } catch {
    return [];
  }
}

export interface CpuSnapshot {
  at: number;
  /** Ticks of each of the platform's processes (one in all-in-one, one per process else). */
  platform: Map<number, number>;
  postgres: Map<number, number>;
  machineBusy: number;
  machineTotal: number;
  loadGenerator: number;
}

/** CPU ticks so far of the platform's processes, of PostgreSQL's, of the machine and of this one. */
export function cpuSnapshot(platformPids: readonly number[]): CpuSnapshot {
  const [machineBusy, machineTotal] = machineTicks();
  const usage = process.cpuUsage();
  return {
    at: performance.now(),
    platform: new Map(platformPids.map((pid) => [pid, processTicks(pid)])),
    postgres: new Map(postgresPids().map((pid) => [pid, processTicks(pid)])),
    machineBusy,
    machineTotal,
    loadGenerator: (usage.user + usage.system) / 1e6,
  };
}

/** CPU seconds used between two snapshots, and the machine's busy share (0..1). */
export interface CpuUse {
  seconds: number;
  /** CPU cores of the machine: busy share x cores x seconds = CPU seconds of everything. */
  cores: number;
  /** Summed over the platform's processes. */
  platform: number;
  /** CPU seconds of each platform process, by pid. */
  perProcess: Map<number, number>;
  postgres: number;
  loadGenerator: number;
  machineBusy: number;
}

/** Ticks each process of `b` used since `a` (a process new since `a` counts from zero). */
function used(a: Map<number, number>, b: Map<number, number>): Map<number, number> {
  return new Map([...b].map(([pid, ticks]) => [pid, ticks - (a.get(pid) ?? 0)]));
}
const sum = (m: Map<number, number>) => [...m.values()].reduce((x, y) => x + y, 0);

export function cpuBetween(a: CpuSnapshot, b: CpuSnapshot): CpuUse {
  // Backends that lived through the window; pool connections do, new ones count from zero.
  const postgres = sum(used(a.postgres, b.postgres));
  const perProcess = new Map(
    [...used(a.platform, b.platform)].map(([pid, ticks]) => [pid, ticks / TICKS_PER_S]),
  );
  const total = b.machineTotal - a.machineTotal;
  return {
    seconds: (b.at - a.at) / 1000,
    cores: cpus().length,
    platform: sum(perProcess),
    perProcess,
    postgres: postgres / TICKS_PER_S,
    loadGenerator: b.loadGenerator - a.loadGenerator,
    machineBusy: total > 0 ? (b.machineBusy - a.machineBusy) / total : NaN,
  };
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
}

/** The package (node_modules), source folder or V8 pseudo-frame a script URL belongs to. */
function categoryOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  if (url.startsWith('node:')) return 'node internals';
  const modules = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (modules) return modules[1]!;
  const src = url.match(/\/(src\/(?:services\/[^/]+|platform\/[^/]+|[^/]+))/);
  if (src) return src[1]!.replace(/\.[jt]s$/, '');
  const bench = url.match(/\/(bench\/[^/]+)/);
  return bench ? bench[1]! : url;
}

export interface ProfileSummary {
  samples: number;
  /** Share of non-idle samples per category, largest first. */
  byCategory: Array<[string, number]>;
  /** Share of non-idle samples per function (name, category, line), largest first. */
  byFunction: Array<[string, number]>;
  /** Share of non-idle samples with a frame of the platform's own source folder on the stack. */
  inclusive: Array<[string, number]>;
}

/** Self time of a .cpuprofile, idle excluded. */
export async function summariseProfile(path: string, top = 12): Promise<ProfileSummary> {
  const profile = JSON.parse(await readFile(path, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parentOf = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parentOf.set(c, n.id);
  // The src/ folders on each node's stack, memoised from the root down.
  const stackSrc = new Map<number, Set<string>>();
  const srcOnStack = (id: number): Set<string> => {
    const known = stackSrc.get(id);
    if (known) return known;
    const parent = parentOf.get(id);
    const set = new Set(parent === undefined ? [] : srcOnStack(parent));
    const { url, functionName } = byId.get(id)!.callFrame;
    const category = categoryOf(url, functionName);
    if (category.startsWith('src/')) set.add(category);
    stackSrc.set(id, set);
    return set;
  };
  const inclusive = new Map<string, number>();
  const hits = new Map<number, number>();
  for (const id of profile.samples) hits.set(id, (hits.get(id) ?? 0) + 1);
  const categories = new Map<string, number>();
  const functions = new Map<string, number>();
  let busy = 0;
  for (const [id, count] of hits) {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    if (functionName === '(idle)') continue;
    busy += count;
    const category = categoryOf(url, functionName);
    categories.set(category, (categories.get(category) ?? 0) + count);
    const fn = `${functionName || '(anonymous)'} ${category}:${lineNumber + 1}`;
    functions.set(fn, (functions.get(fn) ?? 0) + count);
    for (const src of srcOnStack(id)) inclusive.set(src, (inclusive.get(src) ?? 0) + count);
  }
  const shares = (m: Map<string, number>) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([k, v]): [string, number] => [k, v / busy]);
  return {
    samples: busy,
    byCategory: shares(categories),
    byFunction: shares(functions),
    inclusive: shares(inclusive),
  };
}

/** Busy (all but idle and iowait) and total ticks of the whole machine since boot. */
function machineTicks(): [busy: number, total: number] {
  try {
    const ticks = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/);
    const values = ticks.slice(1).map(Number);
    const total = values.reduce((a, b) => a + b, 0);
    return [total - (values[3] ?? 0) - (values[4] ?? 0), total];
  } catch {
    return [0, 0];
  }
}

/**
 * Other work on the machine (a test run, a type check) skews a two-core benchmark: waits until
 * the machine has been under `threshold` busy for two seconds in a row, at most `maxS` seconds.
 * Returns the seconds waited and whether it got quiet.
 */
export async function waitForQuiet(maxS: number, threshold = 0.15) {
  const started = performance.now();
  let quietSeconds = 0;
  let [busy, total] = machineTicks();
  while ((performance.now() - started) / 1000 < maxS) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const [b, t] = machineTicks();
    const share = t > total ? (b - busy) / (t - total) : 0;
    [busy, total] = [b, t];
    quietSeconds = share < threshold ? quietSeconds + 1 : 0;
    if (quietSeconds >= 2) return { waitedS: (performance.now() - started) / 1000, quiet: true };
  }
  return { waitedS: maxS, quiet: false };
}
