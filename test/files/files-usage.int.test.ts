import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from '../helpers/platform.js';
import { createTenantWithAdmin, dataOf, signedInUserWith } from '../identity/identity-fixtures.js';
import { upload } from './files-fixtures.js';

/** `GET /api/v1/files/usage`: the tenant's stored bytes against its quota, for the console. */
let platform: TestPlatform;
let admin: string;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'files-usage-'));
  platform = await startTestPlatform({ UPLOAD_LOCAL_DIR: dir });
  admin = await platform.adminToken();
});
afterAll(async () => {
  await platform?.close();
  await rm(dir, { recursive: true, force: true });
});

const MIB = 1024 * 1024;
const usage = async (token: string) =>
  dataOf<{ used_bytes: number; quota_bytes: number }>(
    await platform.call('GET', '/api/v1/files/usage', { token }),
  );

describe('storage usage', () => {
  it('counts the tenant’s uploads and deletes against its quota (0: unlimited)', async () => {
    const { tenant, token } = await createTenantWithAdmin(platform, admin);
    expect(await usage(token)).toEqual({ used_bytes: 0, quota_bytes: 0 });
    dataOf(
      await platform.call('PUT', `/api/v1/tenants/${tenant.id}`, {
        token: admin,
        body: { storage_quota_mb: 3 },
      }),
    );
    expect(await usage(token)).toEqual({ used_bytes: 0, quota_bytes: 3 * MIB });
    const first = dataOf(await upload(platform, token, randomBytes(1500)));
    dataOf(await upload(platform, token, randomBytes(700)));
    expect(await usage(token)).toEqual({ used_bytes: 2200, quota_bytes: 3 * MIB });
    dataOf(await platform.call('DELETE', `/api/v1/files/${first.id}`, { token }));
    expect(await usage(token)).toEqual({ used_bytes: 700, quota_bytes: 3 * MIB });
  });

  it('reads the package’s quota over the tenant’s own, as the upload check does', async () => {
    const { tenant, token } = await createTenantWithAdmin(platform, admin);
    const pkg = dataOf(
      await platform.call('POST', '/api/v1/packages', {
        token: admin,
        body: { name: `usage-${tenant.id}`, menu_ids: [], storage_quota_mb: 2 },
      }),
    );
    dataOf(
      await platform.call('PUT', `/api/v1/tenants/${tenant.id}`, {
        token: admin,
        body: { storage_quota_mb: 50, package_id: pkg.id },
      }),
    );
    expect((await usage(token)).quota_bytes).toBe(2 * MIB);
  });

  it('is tenant-scoped: another tenant’s uploads do not count', async () => {
    const one = await createTenantWithAdmin(platform, admin);
    const two = await createTenantWithAdmin(platform, admin);
    dataOf(await upload(platform, one.token, randomBytes(4096)));
    expect((await usage(one.token)).used_bytes).toBe(4096);
    expect((await usage(two.token)).used_bytes).toBe(0);
  });

  it('needs system:file:list (403 40300 without it)', async () => {
    const plain = await signedInUserWith(platform, admin, ['system:user:list']);
    const refused = await platform.call('GET', '/api/v1/files/usage', { token: plain.token });
    expect([refused.status, refused.body.code]).toEqual([403, 40300]);
    const lister = await signedInUserWith(platform, admin, ['system:file:list']);
    expect(await usage(lister.token)).toMatchObject({ quota_bytes: expect.any(Number) });
    const anonymous = await platform.call('GET', '/api/v1/files/usage');
    expect(anonymous.status).toBe(401);
  });
});
