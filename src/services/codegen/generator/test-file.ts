import { filterColumns, keywordColumns, TYPE_FACTS } from './columns.js';
import type { ColumnSpec, ModuleSpec, Names } from './spec.js';

/** The body literal of a sample: every column, `unique` in the first keyword column. */
function sampleBody(columns: ColumnSpec[], which: 0 | 1, uniqueIn: string | undefined): string {
  const entries = columns.map((c) => {
    const value = c.name === uniqueIn ? 'unique' : TYPE_FACTS[c.type].samples[which];
    return `${c.name}: ${value}`;
  });
  return `({ ${entries.join(', ')} })`;
}

/** The generated module's HTTP test, through the gateway of a whole started platform. */
export function testFile(spec: ModuleSpec, n: Names): string {
  const keyword = keywordColumns(spec.columns)[0];
  const filter = filterColumns(spec.columns)[0];
  const required = spec.columns.find((c) => c.required);
  const first = spec.columns[0]!;
  const listCheck = keyword
    ? `  const found = dataOf(
    await platform.call('GET', \`\${PATH}?keyword=\${unique}\`, { token: admin }),
  );
  expect(found.list.map((row: { id: number }) => row.id)).toEqual([created.id]);`
    : `  const found = dataOf(await platform.call('GET', \`\${PATH}?page_size=100\`, { token: admin }));
  expect(found.list.map((row: { id: number }) => row.id)).toContain(created.id);`;
  const filterValue = filter ? TYPE_FACTS[filter.type].samples[0].replaceAll("'", '') : '';
  const filterCheck = filter
    ? `
  const filtered = dataOf(
    await platform.call('GET', \`\${PATH}?page_size=100&${filter.name}=${filterValue}\`, { token: admin }),
  );
  expect(filtered.list.map((row: { id: number }) => row.id)).toContain(created.id);
  expect(
    (await platform.call('GET', \`\${PATH}?${filter.name}=not-a-value\`, { token: admin })).body.code,
  ).toBe(40000);`
    : '';
  const invalid = required
    ? `const { ${required.name}: _missing, ...rest } = sample(uniq('x'));
    const res = await platform.call('POST', PATH, { token: admin, body: rest });`
    : `const res = await platform.call('POST', PATH, {
      token: admin,
      body: { ...sample(uniq('x')), ${first.name}: ${first.type === 'string' || first.type === 'text' ? '12' : "'wrong'"} },
    });`;
  return `import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, uniq, type TestPlatform } from '../helpers/platform.js';
import { createTenantWithAdmin, dataOf, signedInUserWith } from '../identity/identity-fixtures.js';

// Written by the code generator: the ${n.service} service's ${n.pluralWords}, through the gateway.

const PATH = '${n.path}';
let platform: TestPlatform;
let admin: string;

beforeAll(async () => {
  platform = await startTestPlatform();
  admin = await platform.adminToken();
});
afterAll(async () => {
  await platform?.close();
});

const sample = (unique: string) => ${sampleBody(spec.columns, 0, keyword?.name)};
const changed = ${sampleBody(spec.columns, 1, undefined).slice(1, -1)};

async function create(token: string) {
  const unique = uniq('k');
  return { unique, created: dataOf(await platform.call('POST', PATH, { token, body: sample(unique) })) };
}

describe('${n.pluralWords}', () => {
  it('creates, reads, finds, changes and deletes a ${n.words}', async () => {
    const { unique, created } = await create(admin);
    expect(created).toMatchObject(sample(unique));
    expect(dataOf(await platform.call('GET', \`\${PATH}/\${created.id}\`, { token: admin }))).toEqual(
      created,
    );
  ${listCheck}${filterCheck}
    const after = dataOf(
      await platform.call('PUT', \`\${PATH}/\${created.id}\`, { token: admin, body: changed }),
    );
    expect(after).toMatchObject(changed);
    dataOf(await platform.call('DELETE', \`\${PATH}/\${created.id}\`, { token: admin }));
    const gone = await platform.call('GET', \`\${PATH}/\${created.id}\`, { token: admin });
    expect([gone.status, gone.body.code]).toEqual([404, 40400]);
  });

  it('refuses a body that breaks the schema (40001) and stores nothing', async () => {
    const before = dataOf(await platform.call('GET', PATH, { token: admin })).total;
    ${invalid}
    expect([res.status, res.body.code]).toEqual([400, 40001]);
    expect(dataOf(await platform.call('GET', PATH, { token: admin })).total).toBe(before);
  });

  it("answers 404 for an unknown id and for another tenant's ${n.words}", async () => {
    const { created } = await create(admin);
    const other = await createTenantWithAdmin(platform, admin);
    for (const [token, id] of [
      [admin, 999_999_999],
      [other.token, created.id],
    ] as const) {
      const read = await platform.call('GET', \`\${PATH}/\${id}\`, { token });
      expect([read.status, read.body.code]).toEqual([404, 40400]);
      const write = await platform.call('PUT', \`\${PATH}/\${id}\`, { token, body: changed });
      expect([write.status, write.body.code]).toEqual([404, 40400]);
    }
    expect(dataOf(await platform.call('GET', \`\${PATH}/\${created.id}\`, { token: admin }))).toEqual(
      created,
    );
  });

  it('needs its permission codes', async () => {
    const reader = await signedInUserWith(platform, admin, ['${n.permission}:list']);
    expect((await platform.call('GET', PATH, { token: reader.token })).status).toBe(200);
    const res = await platform.call('POST', PATH, { token: reader.token, body: sample(uniq('k')) });
    expect([res.status, res.body.code]).toEqual([403, 40300]);
  });
});
`;
}
