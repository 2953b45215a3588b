import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { flowHelpers, singleApproval, createUserWith } from '../bpm/fixtures.js';
import { startTestPlatform, type TestPlatform } from '../helpers/platform.js';
import { realServers } from '../helpers/real-servers.js';
import { createScratchDatabase } from '../helpers/scratch-database.js';
import { createDepartment, dataOf } from '../identity/identity-fixtures.js';

const run = promisify(execFile);
const cleanups: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
});

// docs/operations.md's procedure, as written there: `pg_dump -Fc`, then `pg_restore` into a
// fresh database, then the platform started on it. Real PostgreSQL only (the embedded database
// is backed up by copying its stopped data directory).
describe.runIf(realServers.database)('a pg_dump backup', () => {
  it('restores into a fresh database that the platform runs on, with its data and chain', async () => {
    const source = await createScratchDatabase(process.env.DATABASE_URL!, 'approva_backup');
    const target = await createScratchDatabase(process.env.DATABASE_URL!, 'approva_restore');
    const dir = await mkdtemp(join(tmpdir(), 'approva-backup-'));
    cleanups.push(source.drop, target.drop, () => rm(dir, { recursive: true, force: true }));

    // Data of every kind: identity rows, a running request with its task, the business audit.
    let platform: TestPlatform = await startTestPlatform({ DATABASE_URL: source.url });
    let admin = await platform.adminToken();
    const dept = await createDepartment(platform, admin);
    const approver = await createUserWith(platform, []);
    const initiator = await createUserWith(platform, []);
    const flow = flowHelpers(platform, () => admin);
    const definition = await flow.publish(singleApproval([approver.id]));
    const instance = dataOf(await flow.start(initiator, definition.key));
    const chainBefore = dataOf(
      await platform.call('GET', '/api/v1/logs/audit/verify', { token: admin }),
    );
    expect(chainBefore.ok).toBe(true);
    await platform.close();

    const file = join(dir, 'approva.dump');
    await run('pg_dump', ['--format=custom', `--file=${file}`, source.url]);
    await run('pg_restore', ['--no-owner', `--dbname=${target.url}`, file]);

    platform = await startTestPlatform({ DATABASE_URL: target.url });
    cleanups.push(() => platform.close());
    admin = await platform.adminToken();
    // The restored users sign in with their passwords; the request waits on the same task.
    const signedIn = await platform.login(approver.username, approver.password);
    const todo = dataOf(
      await platform.call('GET', '/api/v1/bpm/tasks/todo', { token: signedIn.access_token }),
    );
    const task = todo.list.find((t: { instance_id: number }) => t.instance_id === instance.id);
    expect(task).toBeDefined();
    const approved = await platform.call('POST', `/api/v1/bpm/tasks/${task.id}/approve`, {
      token: signedIn.access_token,
      body: { comment: 'after the restore' },
    });
    expect(approved.status).toBe(200);
    const detail = dataOf(
      await platform.call('GET', `/api/v1/bpm/instances/${instance.id}`, { token: admin }),
    );
    expect(detail.status).toBe('approved');
    const depts = dataOf(await platform.call('GET', '/api/v1/departments', { token: admin }));
    expect(JSON.stringify(depts)).toContain(dept.name);
    // The chain restored whole verifies, and new rows extend it.
    await createDepartment(platform, admin);
    const chainAfter = dataOf(
      await platform.call('GET', '/api/v1/logs/audit/verify', { token: admin }),
    );
    expect(chainAfter).toMatchObject({ ok: true, first_broken: null });
    expect(chainAfter.checked).toBeGreaterThan(chainBefore.checked);
  }, 120_000);
});
