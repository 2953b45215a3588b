import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, uniq, type TestPlatform } from '../helpers/platform.js';
import { SERVICE_MODULES } from '../../src/start.js';
import { createUserWith } from '../bpm/fixtures.js';
import { auditRowsOf, createTenant, eventually } from './system-fixtures.js';

// Error-code texts edited online: every service's envelope carries them within the refresh
// interval (1 s here; 30 s by default).

let platform: TestPlatform;
let admin: string;

beforeAll(async () => {
  platform = await startTestPlatform({ ERROR_TEXT_REFRESH_INTERVAL: '1s' });
  admin = await platform.adminToken();
});
afterAll(() => platform?.close());

const call = (method: string, path: string, body?: unknown, token = admin) =>
  platform.call(method, path, { token, ...(body !== undefined ? { body } : {}) });

describe('error texts', () => {
  it('list every known code with its default and current text', async () => {
    const res = await call('GET', '/api/v1/system/error-texts');
    expect(res.status).toBe(200);
    const codes = res.body.data.map((t: any) => t.code);
    expect(codes).toEqual([...codes].sort((a: number, b: number) => a - b));
    expect(codes).toEqual(expect.arrayContaining([40000, 40001, 40100, 40300, 40400, 50000]));
    expect(res.body.data.find((t: any) => t.code === 40900)).toMatchObject({
      http_status: 409,
      default_message: 'conflict with the current state',
    });
  });

  it('show an overridden text in other services\u2019 errors within the refresh interval, and restore it', async () => {
    const text = uniq('Nothing here');
    const put = await call('PUT', '/api/v1/system/error-texts/40400', { message: text });
    expect(put.status).toBe(200);
    expect(put.body.data).toMatchObject({ code: 40400, message: text, overridden: true });
    // Identity's and BPM's 404s, answered by other services of the platform.
    const identity404 = () => call('GET', '/api/v1/users/987654321');
    const bpm404 = () => call('GET', '/api/v1/bpm/instances/987654321');
    expect(await eventually(async () => (await identity404()).body.message === text, 5000)).toBe(
      true,
    );
    const fromBpm = await bpm404();
    expect([fromBpm.status, fromBpm.body.code, fromBpm.body.message]).toEqual([404, 40400, text]);
    // Marked as an administrator's text, so the console shows it instead of its own.
    expect(fromBpm.headers.get('x-error-text')).toBe('custom');
    expect((await call('GET', '/api/v1/roles/987654321')).headers.get('x-error-text')).toBe(
      'custom',
    );
    const notOverridden = await call('PUT', '/api/v1/roles/987654321', { name: '' });
    expect(notOverridden.body.code).toBe(40001);
    expect(notOverridden.headers.get('x-error-text')).toBeNull();
    // Every service of the module list answers an unknown route of its own with it.
    const prefixes = SERVICE_MODULES.map((m) => m.routes[0]!.prefix).filter((prefix) =>
      prefix.startsWith('/api/v1/'),
    );
    expect(prefixes.length).toBe(SERVICE_MODULES.length);
    for (const prefix of prefixes) {
      const path = `${prefix.replace('/oauth2', '/oauth2/clients')}/no-such-route/1`;
      expect(
        await eventually(async () => (await call('GET', path)).body.message === text, 5000),
        path,
      ).toBe(true);
    }
    const listed = (await call('GET', '/api/v1/system/error-texts')).body.data;
    expect(listed.find((t: any) => t.code === 40400)).toMatchObject({
      message: text,
      default_message: 'not found',
    });
    // Audited, before and after.
    const rows = await auditRowsOf(platform, admin, 'error_text', 40400);
    expect(rows[0]).toMatchObject({ action: 'update', after: { message: text } });

    const restored = await call('DELETE', '/api/v1/system/error-texts/40400');
    expect(restored.body.data).toMatchObject({ overridden: false, message: 'not found' });
    expect(await eventually(async () => (await identity404()).body.message !== text, 5000)).toBe(
      true,
    );
    expect((await identity404()).body.message).toBe('user not found');
    expect((await identity404()).headers.get('x-error-text')).toBeNull();
    expect((await auditRowsOf(platform, admin, 'error_text', 40400))[0]).toMatchObject({
      action: 'delete',
    });
  });

  it('refuse unknown codes (404), malformed ones (40000) and bad texts (40001), changing nothing', async () => {
    const unknown = await call('PUT', '/api/v1/system/error-texts/40499', { message: 'x' });
    expect([unknown.status, unknown.body.code]).toEqual([404, 40400]);
    const unknownDelete = await call('DELETE', '/api/v1/system/error-texts/12345');
    expect(unknownDelete.status).toBe(404);
    const malformed = await call('PUT', '/api/v1/system/error-texts/4040x', { message: 'x' });
    expect([malformed.status, malformed.body.code]).toEqual([400, 40000]);
    for (const body of [{ message: '' }, { message: 7 }, {}, { message: 'x'.repeat(201) }]) {
      const bad = await call('PUT', '/api/v1/system/error-texts/40900', body);
      expect([bad.status, bad.body.code]).toEqual([400, 40001]);
    }
    const listed = (await call('GET', '/api/v1/system/error-texts')).body.data;
    expect(listed.find((t: any) => t.code === 40900).overridden).toBe(false);
  });

  it('are for platform administrators holding the code only', async () => {
    const tenant = await createTenant(platform, admin);
    const tenantAdmin = await call(
      'PUT',
      '/api/v1/system/error-texts/40900',
      { message: 'x' },
      tenant.token,
    );
    expect([tenantAdmin.status, tenantAdmin.body.code]).toEqual([403, 40300]);
    expect((await call('GET', '/api/v1/system/error-texts', undefined, tenant.token)).status).toBe(
      403,
    );
    const plain = await createUserWith(platform, []);
    expect((await call('GET', '/api/v1/system/error-texts', undefined, plain.token)).status).toBe(
      403,
    );
    const anonymous = await platform.call('GET', '/api/v1/system/error-texts');
    expect([anonymous.status, anonymous.body.code]).toEqual([401, 40100]);
  });
});
