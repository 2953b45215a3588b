import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { singleApproval, LEAVE_FORM } from '../bpm/fixtures.js';
import { freePort } from '../helpers/free-port.js';
import { startTestPlatform, TEST_JWT_SECRET, type TestPlatform } from '../helpers/platform.js';
import { realServers } from '../helpers/real-servers.js';
import { createScratchDatabase } from '../helpers/scratch-database.js';
import { dataOf, PASSWORD } from '../identity/identity-fixtures.js';
import { download } from '../files/files-fixtures.js';

const run = promisify(execFile);
/** The initiator's own password, set under the previous release. */
const NEW_PASSWORD = 'Quiet-Lantern-Orbit-47';
const ROOT = new URL('../../', import.meta.url).pathname;
/** The release before this one: its version and commit (CHANGELOG.md names it too). */
const previous = JSON.parse(
  readFileSync(new URL('./previous-release.json', import.meta.url), 'utf8'),
) as { version: string; commit: string };

const cleanups: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
}, 120_000);

/** The previous release's source tree, from git; its dependencies when they are this tree's. */
async function previousRelease(dir: string): Promise<string> {
  const tree = join(dir, 'previous');
  await mkdir(tree);
  const archive = spawn('git', ['archive', previous.commit], { cwd: ROOT });
  const untar = spawn('tar', ['-x', '-C', tree]);
  archive.stdout.pipe(untar.stdin);
  await new Promise<void>((resolve, reject) => {
    untar.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`tar exited ${code}`))));
    archive.on('exit', (code) => {
      if (code !== 0) reject(new Error(`git archive ${previous.commit} failed (${code})`));
    });
  });
  const deps = (root: string) =>
    JSON.stringify(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).dependencies);
  if (deps(tree) === deps(ROOT)) {
    await symlink(join(ROOT, 'node_modules'), join(tree, 'node_modules'));
  } else {
    // Its own dependencies, as its lockfile pins them.
    await run('npm', ['ci', '--omit=dev', '--no-audit', '--no-fund'], { cwd: tree });
  }
  return tree;
}

/** A process of the previous release (all-in-one on DATABASE_URL), until it is stopped. */
async function startPrevious(tree: string, env: Record<string, string>) {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'serve'], {
    cwd: tree,
    env: { PATH: process.env.PATH ?? '', ...env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    const ready = await fetch(`${url}/api/v1/health/ready`).catch(() => undefined);
    if (ready?.status === 200) break;
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the previous release did not start: ${stderr.slice(-2000)}`);
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  const stop = async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  };
  cleanups.push(stop);
  const call = async (method: string, path: string, token?: string, body?: unknown) => {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: {
        ...(token && { authorization: `Bearer ${token}` }),
        ...(body !== undefined && { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await res.json()) as { code: number; data: any; message: string };
    if (res.status !== 200) {
      throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
    }
    return json.data;
  };
  const login = async (username: string, password: string) =>
    (await call('POST', '/api/v1/login', undefined, { username, password })).access_token as string;
  return { url, call, login, stop };
}

// The README's upgrade: a database written by the previous release, with data of every kind,
// migrated by this release's code when it starts, and every piece of that data still working.
describe.runIf(realServers.database)(`an upgrade from ${previous.version}`, () => {
  it('migrates the previous release’s database and keeps its data working', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'approva-upgrade-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const scratch = await createScratchDatabase(process.env.DATABASE_URL!, 'approva_upgrade');
    cleanups.push(scratch.drop);
    const uploads = join(dir, 'uploads');
    const env = {
      APP_ENV: 'test',
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      METRICS_ENABLED: 'false',
      LOGIN_CAPTCHA: 'off',
      JWT_SECRET: TEST_JWT_SECRET,
      DATABASE_URL: scratch.url,
      UPLOAD_LOCAL_DIR: uploads,
    };

    const old = await startPrevious(await previousRelease(dir), env);
    const admin = await old.login('admin', 'admin123');
    const suffix = randomBytes(3).toString('hex');
    const dept = await old.call('POST', '/api/v1/departments', admin, { name: `Ops ${suffix}` });
    const role = await old.call('POST', '/api/v1/roles', admin, {
      code: `starter_${suffix}`,
      name: 'Starter',
      permissions: ['bpm:definition:list'],
    });
    const [approver, initiator] = await Promise.all(
      ['approver', 'initiator'].map((name) =>
        old.call('POST', '/api/v1/users', admin, {
          username: `${name}_${suffix}`,
          password: PASSWORD,
          dept_id: dept.id,
          role_ids: [role.id],
        }),
      ),
    );
    const draft = await old.call('POST', '/api/v1/bpm/definitions', admin, {
      key: `upgrade-${suffix}`,
      name: 'Leave request',
      form_mode: 'flow',
      form_schema: LEAVE_FORM,
      node_tree: singleApproval([approver.id]),
    });
    await old.call('POST', `/api/v1/bpm/definitions/${draft.id}/publish`, admin);
    // Users an administrator created change their password at first sign-in.
    const firstToken = await old.login(initiator.username, PASSWORD);
    await old.call('POST', '/api/v1/me/password', firstToken, {
      old_password: PASSWORD,
      new_password: NEW_PASSWORD,
    });
    const initiatorToken = await old.login(initiator.username, NEW_PASSWORD);
    const instance = await old.call('POST', '/api/v1/bpm/instances', initiatorToken, {
      definition_key: `upgrade-${suffix}`,
      form: { reason: 'before the upgrade', days: 2 },
    });
    const form = new FormData();
    const bytes = randomBytes(2048);
    form.append('file', new Blob([bytes]), 'kept.bin');
    const uploaded = await fetch(`${old.url}/api/v1/files`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin}` },
      body: form,
    });
    const file = ((await uploaded.json()) as { data: { id: number } }).data;
    const chainBefore = await old.call('GET', '/api/v1/logs/audit/verify', admin);
    expect(chainBefore.ok).toBe(true);
    await old.stop();

    // This release, on the same database and files: it migrates at start.
    const platform: TestPlatform = await startTestPlatform(env);
    cleanups.push(() => platform.close());
    const token = await platform.adminToken();
    const approverSession = await platform.login(approver.username, PASSWORD);
    const todo = dataOf(
      await platform.call('GET', '/api/v1/bpm/tasks/todo', { token: approverSession.access_token }),
    );
    const task = todo.list.find((t: { instance_id: number }) => t.instance_id === instance.id);
    expect(task).toBeDefined();
    dataOf(
      await platform.call('POST', `/api/v1/bpm/tasks/${task.id}/approve`, {
        token: approverSession.access_token,
        body: { comment: 'after the upgrade' },
      }),
    );
    const detail = dataOf(
      await platform.call('GET', `/api/v1/bpm/instances/${instance.id}`, { token }),
    );
    expect(detail).toMatchObject({ status: 'approved', form: { reason: 'before the upgrade' } });
    // The initiator signs in with the password they set under the previous release.
    await platform.login(initiator.username, NEW_PASSWORD);
    const roles = dataOf(await platform.call('GET', '/api/v1/roles?page_size=100', { token }));
    expect(roles.list.map((r: { code: string }) => r.code)).toContain(`starter_${suffix}`);
    const link = dataOf(await platform.call('GET', `/api/v1/files/${file.id}/url`, { token }));
    expect((await download(platform, link.url)).bytes.equals(bytes)).toBe(true);
    // The chain the previous release wrote verifies, and a change made now extends it.
    const body = { name: `New ${suffix}` };
    dataOf(await platform.call('POST', '/api/v1/departments', { token, body }));
    const chainAfter = dataOf(await platform.call('GET', '/api/v1/logs/audit/verify', { token }));
    expect(chainAfter).toMatchObject({ ok: true, first_broken: null });
    expect(chainAfter.checked).toBeGreaterThan(chainBefore.checked);
  }, 240_000);
});
