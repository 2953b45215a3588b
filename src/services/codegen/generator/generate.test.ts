import { describe, expect, it } from 'vitest';
import { addToModuleList, generateModule } from './generate.js';
import { namesOf, type ModuleSpec } from './spec.js';

const spec: ModuleSpec = {
  service: 'shop',
  entity: 'purchase_order',
  columns: [
    { name: 'title', type: 'string', required: true, searchable: true },
    { name: 'due_on', type: 'date', required: false, searchable: true },
  ],
};

describe('namesOf', () => {
  it('derives every identifier from the snake_case names', () => {
    expect(namesOf(spec)).toMatchObject({
      Service: 'Shop',
      Entity: 'PurchaseOrder',
      entityCamel: 'purchaseOrder',
      plural: 'purchase_orders',
      Plural: 'PurchaseOrders',
      table: 'shop_purchase_orders',
      path: '/api/v1/shop/purchase-orders',
      permission: 'shop:purchase-order',
      file: 'purchase-orders',
    });
    expect(namesOf({ ...spec, entity: 'person', plural: 'people' }).path).toBe(
      '/api/v1/shop/people',
    );
  });
});

describe('generateModule', () => {
  it('places the migration and the port as told', () => {
    const files = generateModule(spec, { migration: 7, port: 8123 });
    expect(files.map((f) => f.path)).toContain('migrations/0007_shop_purchase_orders.sql');
    expect(files.find((f) => f.path.endsWith('index.ts'))!.content).toContain('defaultPort: 8123,');
  });

  it('selects a date as text and filters it exactly; the keyword matches the string column', () => {
    const repo = generateModule(spec, { migration: 1, port: 1 }).find((f) =>
      f.path.endsWith('.repo.ts'),
    )!.content;
    expect(repo).toContain("sql<string>`due_on::text`.as('due_on')");
    expect(repo).toContain("eb('title', 'ilike', pattern)");
    expect(repo).toContain("q = q.where('due_on', '=', filter.due_on)");
  });
});

describe('addToModuleList', () => {
  const start = [
    "import { aModule } from './services/a/index.js';",
    '',
    'const MODULES = [',
    '  wired(aModule, () => ({})),',
    '] as const;',
    '',
  ].join('\n');

  it('adds the import after the last module import and the line at the end of the list', () => {
    expect(addToModuleList(start, spec)).toBe(
      [
        "import { aModule } from './services/a/index.js';",
        "import { shopModule } from './services/shop/index.js';",
        '',
        'const MODULES = [',
        '  wired(aModule, () => ({})),',
        '  wired(shopModule, () => ({})),',
        '] as const;',
        '',
      ].join('\n'),
    );
  });

  it('refuses to guess when the file has no module list', () => {
    expect(addToModuleList(start.replace('] as const;', ']'), spec)).toBeUndefined();
    expect(addToModuleList('const MODULES = [\n] as const;\n', spec)).toBeUndefined();
  });
});
