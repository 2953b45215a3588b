import { describe, expect, it } from 'vitest';
import type { BpmDb } from '../bpm.tables.js';
import type { DefinitionRow } from '../definitions/definitions.repo.js';
import { FrozenDefinitions } from './frozen-definitions.js';

/** A database no kept version may reach: reading one means the entry was not kept. */
const NO_DB = new Proxy({} as BpmDb, {
  get() {
    throw new Error('read the database');
  },
});

const row = (id: number, extra: Partial<DefinitionRow> = {}) =>
  ({
    id,
    tenant_id: 1,
    status: 'published',
    node_tree: { id: 'start', type: 'start', name: `v${id}`, child: null },
    form_schema: { fields: [{ key: 'reason', label: 'Reason', type: 'input' }] },
    ...extra,
  }) as DefinitionRow;

describe('FrozenDefinitions', () => {
  it('answers a version a start read without reading it again', async () => {
    const kept = new FrozenDefinitions();
    const started = kept.remember(row(7));
    expect(await kept.of(NO_DB, 1, 7)).toBe(started);
  });

  it('never answers a version to another tenant', async () => {
    const kept = new FrozenDefinitions();
    kept.remember(row(7));
    await expect(kept.of(NO_DB, 2, 7)).rejects.toThrow('read the database');
  });

  it('does not keep a draft (drafts change)', async () => {
    const kept = new FrozenDefinitions();
    kept.remember(row(7, { status: 'draft' }));
    await expect(kept.of(NO_DB, 1, 7)).rejects.toThrow('read the database');
  });

  it('keeps at most `max` versions, dropping the least recently used', async () => {
    const kept = new FrozenDefinitions(2);
    kept.remember(row(1));
    kept.remember(row(2));
    await kept.of(NO_DB, 1, 1);
    kept.remember(row(3));
    expect((await kept.of(NO_DB, 1, 1)).tree.name).toBe('v1');
    expect((await kept.of(NO_DB, 1, 3)).tree.name).toBe('v3');
    await expect(kept.of(NO_DB, 1, 2)).rejects.toThrow('read the database');
  });

  it('freezes what every command of the version shares', () => {
    const { tree, schema } = new FrozenDefinitions().remember(row(7));
    expect(Object.isFrozen(tree)).toBe(true);
    expect(Object.isFrozen(schema.fields[0])).toBe(true);
    expect(() => {
      (tree as { name: string }).name = 'changed';
    }).toThrow(TypeError);
  });
});
