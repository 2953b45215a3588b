/**
 * Lighthouse scores of the console's first pages: the sign-in page (not signed in) and the
 * dashboard (signed in as the seeded administrator), in Lighthouse's mobile and desktop
 * settings, against the built platform on embedded defaults. `npm run bench:lighthouse`.
 *
 * Lighthouse runs through `npx` at a pinned version (it is a measuring tool, not a dependency of
 * the platform) on Debian's Chromium (`CHROME_PATH`, default /usr/bin/chromium). The dashboard
 * is measured in a browser profile that Playwright signed in first; Lighthouse keeps its storage
 * (`--disable-storage-reset`), so the page loads as a returning, signed-in user's would.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { chromium } from '@playwright/test';
import { waitForQuiet } from './bpm-cpu.js';

const LIGHTHOUSE = 'lighthouse@12.8.2';
const CHROME = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 3);
/** Seconds each run waits for the machine to be under 15 % busy (a busy one lowers scores). */
const QUIET_WAIT_S = Number(process.env.LIGHTHOUSE_QUIET_WAIT ?? 60);
/** Runs measured while other work kept the machine busy, named in the output. */
const noisy: string[] = [];
const run = promisify(execFile);

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function waitReady(url: string) {
  for (let i = 0; i < 120; i++) {
    const ok = await fetch(`${url}/api/v1/health/ready`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error('the platform did not become ready within 60 s');
}

/** A Chromium profile in which the administrator is signed in to the console at `url`. */
async function signedInProfile(url: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'approva-lh-profile-'));
  const context = await chromium.launchPersistentContext(dir, {
    executablePath: CHROME,
    args: ['--no-sandbox'],
  });
  const page = await context.newPage();
  await page.goto(`${url}/login`);
  await page.getByLabel('Username').fill('admin');
  await page.getByLabel('Password').fill('admin123');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('navigation', { name: 'Main navigation' }).waitFor();
  await context.close();
  return dir;
}

interface Scores {
  performance: number;
  accessibility: number;
  'best-practices': number;
  fcp: string;
  lcp: string;
  tbt: string;
  cls: string;
  kb: number;
}

async function lighthouse(url: string, desktop: boolean, profile?: string): Promise<Scores> {
  const out = join(tmpdir(), `approva-lh-${process.pid}-${Date.now()}.json`);
  const flags = ['--headless=new', '--no-sandbox', '--disable-gpu'];
  if (profile) flags.push(`--user-data-dir=${profile}`);
  await run(
    'npx',
    [
      '-y',
      LIGHTHOUSE,
      url,
      '--only-categories=performance,accessibility,best-practices',
      `--chrome-flags=${flags.join(' ')}`,
      '--output=json',
      `--output-path=${out}`,
      '--quiet',
      ...(desktop ? ['--preset=desktop'] : []),
      ...(profile ? ['--disable-storage-reset'] : []),
    ],
    { env: { ...process.env, CHROME_PATH: CHROME }, maxBuffer: 64 * 1024 * 1024 },
  );
  const report = JSON.parse(await readFile(out, 'utf8'));
  await rm(out, { force: true });
  const score = (id: string) => Math.round(report.categories[id].score * 100);
  const shown = (id: string) => report.audits[id].displayValue as string;
  return {
    performance: score('performance'),
    accessibility: score('accessibility'),
    'best-practices': score('best-practices'),
    fcp: shown('first-contentful-paint'),
    lcp: shown('largest-contentful-paint'),
    tbt: shown('total-blocking-time'),
    cls: shown('cumulative-layout-shift'),
    kb: Math.round(report.audits['total-byte-weight'].numericValue / 1024),
  };
}

/** The run with the median performance score of `RUNS` (Lighthouse's own advice for noise). */
async function median(label: string, measure: () => Promise<Scores>): Promise<Scores> {
  const runs: Scores[] = [];
  for (let i = 0; i < RUNS; i++) {
    process.stderr.write(`${label}: run ${i + 1} of ${RUNS}\n`);
    if (!(await waitForQuiet(QUIET_WAIT_S)).quiet) {
      process.stderr.write('  WARNING: other processes keep the machine busy; measuring anyway\n');
      noisy.push(`${label} run ${i + 1}`);
    }
    runs.push(await measure());
  }
  runs.sort((a, b) => a.performance - b.performance);
  return runs[Math.floor(runs.length / 2)]!;
}

const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const platform = spawn(process.execPath, ['dist/main.js', 'serve'], {
  env: {
    ...process.env,
    DATA_DIR: 'memory://',
    PORT: String(port),
    METRICS_ENABLED: 'false',
    LOG_LEVEL: 'warn',
    LOGIN_CAPTCHA: 'off',
  },
  stdio: ['ignore', 'ignore', 'inherit'],
});
try {
  await waitReady(base);
  const profile = await signedInProfile(base);
  const rows: Array<[string, string, Scores]> = [];
  for (const desktop of [false, true]) {
    const form = desktop ? 'desktop' : 'mobile';
    rows.push([
      form,
      'sign-in',
      await median(`sign-in, ${form}`, () => lighthouse(`${base}/login`, desktop)),
    ]);
    rows.push([
      form,
      'dashboard',
      await median(`dashboard, ${form}`, () => lighthouse(`${base}/`, desktop, profile)),
    ]);
  }
  await rm(profile, { recursive: true, force: true });
  console.log(`Lighthouse ${LIGHTHOUSE.split('@')[1]}, ${CHROME}, median of ${RUNS} runs\n`);
  if (noisy.length > 0) {
    console.log(
      `**Measured on a busy machine** (scores read low): ${noisy.join(', ')}. Re-run when it is quiet.\n`,
    );
  }
  console.log(
    '| settings | page | performance | accessibility | best practices | FCP | LCP | TBT | CLS | KB transferred |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  for (const [form, page, s] of rows) {
    console.log(
      `| ${form} | ${page} | ${s.performance} | ${s.accessibility} | ${s['best-practices']} | ${s.fcp} | ${s.lcp} | ${s.tbt} | ${s.cls} | ${s.kb} |`,
    );
  }
} finally {
  platform.kill('SIGTERM');
}
