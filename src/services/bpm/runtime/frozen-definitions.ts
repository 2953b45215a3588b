import type { BpmDb } from '../bpm.tables.js';
import type { DefinitionRow } from '../definitions/definitions.repo.js';
import type { FlowNode, FormSchema } from '../engine/index.js';
import { frozenDefinition } from './state.repo.js';

/** A definition version as its instances run it. */
export interface FrozenDefinition {
  tree: FlowNode;
  schema: FormSchema;
}

/** How many definition versions a process keeps by default (the least recently used go). */
export const FROZEN_DEFINITIONS_MAX = 256;

/**
 * The definition versions instances run on, by id, kept in process. A version is frozen when it
 * is published (only drafts change, and an instance never runs on a draft), so an entry is never
 * stale and needs no invalidation: every replica may keep its own. Entries are deep-frozen, since
 * every command of every instance of the version shares them.
 */
export class FrozenDefinitions {
  private readonly entries = new Map<number, { tenantId: number; definition: FrozenDefinition }>();

  /** `max`: versions kept (default FROZEN_DEFINITIONS_MAX). */
  constructor(private readonly max = FROZEN_DEFINITIONS_MAX) {}

  /** The version `definitionId` of the tenant, read on `db` when not kept yet; throws if none. */
  async of(db: BpmDb, tenantId: number, definitionId: number): Promise<FrozenDefinition> {
    const kept = this.kept(tenantId, definitionId);
    if (kept) return kept;
    const row = await frozenDefinition(db, tenantId, definitionId);
    return this.keep(tenantId, definitionId, row.node_tree, row.form_schema);
  }

  /**
   * The version a start just read (published): kept, so the instance's next commands need not
   * read it again. A draft is answered as it is and not kept.
   */
  remember(row: DefinitionRow): FrozenDefinition {
    const tree = row.node_tree as FlowNode;
    const schema = row.form_schema as FormSchema;
    if (row.status === 'draft') return { tree, schema };
    return this.kept(row.tenant_id, row.id) ?? this.keep(row.tenant_id, row.id, tree, schema);
  }

  private kept(tenantId: number, id: number): FrozenDefinition | undefined {
    const entry = this.entries.get(id);
    if (!entry || entry.tenantId !== tenantId) return undefined;
    // Most recently used last: eviction takes the first.
    this.entries.delete(id);
    this.entries.set(id, entry);
    return entry.definition;
  }

  private keep(tenantId: number, id: number, tree: unknown, schema: unknown): FrozenDefinition {
    const definition = deepFreeze({ tree, schema }) as FrozenDefinition;
    this.entries.set(id, { tenantId, definition });
    if (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value!);
    return definition;
  }
}

/** Freezes every object and array reachable from `value` (iteratively: trees nest deep). */
function deepFreeze<T>(value: T): T {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (item === null || typeof item !== 'object' || Object.isFrozen(item)) continue;
    Object.freeze(item);
    for (const child of Object.values(item)) stack.push(child);
  }
  return value;
}
