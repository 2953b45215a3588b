import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, uniq, type TestPlatform } from '../helpers/platform.js';
import { createTenantWithAdmin, dataOf, signedInUserWith } from '../identity/identity-fixtures.js';
import { customerSpec } from './codegen-fixtures.js';

/**
 * The code generator through the gateway: who may use it, what it refuses, and where it writes.
 * The generated module compiling, linting and passing its own test in a copy of the project is
 * test/codegen/generated-module.codegen.test.ts.
 */

const START = await readFile(new URL('../../src/start.ts', import.meta.url), 'utf8');
const PRETTIER = await readFile(new URL('../../.prettierrc.json', import.meta.url), 'utf8');
let dir: string;
let enabled: TestPlatform;
let disabled: TestPlatform;
let admin: string;

/** A project the size of the generator's needs: two services, two migrations, start.ts. */
async function miniProject(root: string) {
  for (const [name, port] of [
    ['files', 8105],
    ['audit', 8112],
  ] as const) {
    await mkdir(join(root, 'src/services', name), { recursive: true });
    await writeFile(join(root, 'src/services', name, 'index.ts'), `  defaultPort: ${port},\n`);
  }
  await writeFile(join(root, 'src/start.ts'), START);
  // The generator formats with the project's own Prettier settings.
  await writeFile(join(root, '.prettierrc.json'), PRETTIER);
  await mkdir(join(root, 'migrations'));
  await writeFile(join(root, 'migrations/0001_init.sql'), 'CREATE TABLE iam_users (id int);\n');
  await writeFile(
    join(root, 'migrations/0041_shop.sql'),
    'CREATE TABLE shop_customers (id int);\n',
  );
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'codegen-'));
  await miniProject(dir);
  enabled = await startTestPlatform({ CODEGEN_WRITE_ENABLED: 'true', CODEGEN_OUTPUT_DIR: dir });
  disabled = await startTestPlatform({ CODEGEN_OUTPUT_DIR: dir });
  admin = await enabled.adminToken();
});
afterAll(async () => {
  await Promise.all([enabled?.close(), disabled?.close()]);
  await rm(dir, { recursive: true, force: true });
});

const service = () => uniq('s').replace('_', '').slice(0, 12);
const files = async () => (await readdir(dir, { recursive: true })).sort();

describe('preview', () => {
  it('returns the module, its migration and test, and start.ts with the one line added', async () => {
    const name = service();
    const { files: preview } = dataOf(
      await enabled.call('POST', '/api/v1/codegen/preview', {
        token: admin,
        body: customerSpec(name),
      }),
    );
    const paths = preview.map((f: { path: string }) => f.path);
    expect(paths).toEqual([
      `src/services/${name}/index.ts`,
      `src/services/${name}/${name}.permissions.ts`,
      `src/services/${name}/${name}.tables.ts`,
      `src/services/${name}/${name}.app.ts`,
      `src/services/${name}/customers.repo.ts`,
      `src/services/${name}/customers.service.ts`,
      `src/services/${name}/customers.schema.ts`,
      `src/services/${name}/customers.routes.ts`,
      // The next number and port after the project's highest.
      `migrations/0042_${name}_customers.sql`,
      `test/${name}/customers.int.test.ts`,
      'src/start.ts',
    ]);
    const content = (path: string) =>
      preview.find((f: { path: string }) => f.path === path).content;
    expect(content(`src/services/${name}/index.ts`)).toContain('defaultPort: 8113,');
    expect(content(`migrations/0042_${name}_customers.sql`)).toContain(
      `CREATE TABLE ${name}_customers (`,
    );
    // start.ts gains exactly its import and its line at the end of the module list.
    const importLine = `import { ${name}Module } from './services/${name}/index.js';\n`;
    const listLine = `  wired(${name}Module, () => ({})),\n] as const;`;
    const started = content('src/start.ts');
    expect(started).toContain(importLine);
    expect(started).toContain(listLine);
    expect(started.replace(importLine, '').replace(listLine, '] as const;')).toBe(START);
    // Written nowhere.
    expect((await files()).some((f) => f.includes(name))).toBe(false);
  });

  it('refuses bad descriptions with 40001 on the field', async () => {
    const spec = customerSpec(service());
    const bad: [unknown, string][] = [
      [{ ...spec, service: '../etc' }, 'service'],
      [{ ...spec, service: 'Crm' }, 'service'],
      [{ ...spec, entity: 'customer; DROP TABLE x' }, 'entity'],
      [{ ...spec, columns: [] }, 'columns'],
      [{ ...spec, columns: [{ name: 'id', type: 'integer' }] }, 'columns.0.name'],
      [{ ...spec, columns: [{ name: 'a', type: 'blob' }] }, 'columns.0.type'],
      [
        { ...spec, columns: [{ name: 'a', type: 'number', searchable: true }] },
        'columns.0.searchable',
      ],
      [{ ...spec, columns: [{ name: 'a', type: 'text', max_length: 20 }] }, 'columns.0.max_length'],
      [{ ...spec, columns: [spec.columns[0], spec.columns[0]] }, 'columns.1.name'],
      [{ ...spec, plural: 'customer' }, 'plural'],
    ];
    for (const [body, field] of bad) {
      const res = await enabled.call('POST', '/api/v1/codegen/preview', { token: admin, body });
      expect([res.status, res.body.code], JSON.stringify(body)).toEqual([400, 40001]);
      expect(res.body.data.fields.map((f: { field: string }) => f.field)).toContain(field);
    }
  });

  it('refuses a service or table that exists (409)', async () => {
    for (const spec of [customerSpec('files'), customerSpec('shop')]) {
      const res = await enabled.call('POST', '/api/v1/codegen/preview', {
        token: admin,
        body: spec,
      });
      expect([res.status, res.body.code]).toEqual([409, 40900]);
    }
  });

  it("is the platform administrators' with the code: a tenant's administrator and a user without it get 403", async () => {
    const tenant = await createTenantWithAdmin(enabled, admin);
    const user = await signedInUserWith(enabled, admin, ['system:user:list']);
    for (const token of [tenant.token, user.token]) {
      const res = await enabled.call('POST', '/api/v1/codegen/preview', {
        token,
        body: customerSpec(service()),
      });
      expect([res.status, res.body.code]).toEqual([403, 40300]);
    }
  });
});

describe('status', () => {
  it('says whether writing is on, and names the directory only then', async () => {
    const on = dataOf(await enabled.call('GET', '/api/v1/codegen/status', { token: admin }));
    expect(on).toEqual({ write_enabled: true, directory: dir });
    const off = dataOf(
      await disabled.call('GET', '/api/v1/codegen/status', { token: await disabled.adminToken() }),
    );
    expect(off).toEqual({ write_enabled: false, directory: null });
  });

  it("is refused like the preview: a tenant's administrator and a user without the code", async () => {
    const tenant = await createTenantWithAdmin(enabled, admin);
    const user = await signedInUserWith(enabled, admin, ['system:user:list']);
    for (const token of [tenant.token, user.token]) {
      const res = await enabled.call('GET', '/api/v1/codegen/status', { token });
      expect([res.status, res.body.code]).toEqual([403, 40300]);
    }
  });
});

describe('write', () => {
  it('is 404 unless CODEGEN_WRITE_ENABLED=true, and writes nothing', async () => {
    const before = await files();
    const res = await disabled.call('POST', '/api/v1/codegen/write', {
      token: await disabled.adminToken(),
      body: customerSpec(service()),
    });
    expect([res.status, res.body.code]).toEqual([404, 40400]);
    expect(await files()).toEqual(before);
  });

  it('writes the files inside the output directory, and never twice', async () => {
    const name = service();
    const written = dataOf(
      await enabled.call('POST', '/api/v1/codegen/write', {
        token: admin,
        body: customerSpec(name),
      }),
    );
    expect(written.directory).toBe(dir);
    for (const path of written.paths) {
      expect(await readFile(join(dir, path), 'utf8')).not.toBe('');
    }
    expect(await readFile(join(dir, 'src/start.ts'), 'utf8')).toContain(`wired(${name}Module`);
    const again = await enabled.call('POST', '/api/v1/codegen/write', {
      token: admin,
      body: customerSpec(name),
    });
    expect([again.status, again.body.code]).toEqual([409, 40900]);
    const user = await signedInUserWith(enabled, admin, ['system:codegen:preview']);
    const refused = await enabled.call('POST', '/api/v1/codegen/write', {
      token: user.token,
      body: customerSpec(service()),
    });
    expect(refused.status).toBe(403);
  });
});
