import { inTransaction } from '../../../platform/db/transaction.js';
import { AppError } from '../../../platform/http/errors.js';
import { createTenantDirectory } from '../../identity/assignee-directory.js';
import type { IdentityTables } from '../../identity/identity.tables.js';
import type { BpmDb } from '../bpm.tables.js';
import type {
  EngineContext,
  EngineResult,
  FlowNode,
  FormSchema,
  InstanceState,
} from '../engine/types.js';
import { writeEffects, type NotifyTarget } from './effects.js';
import {
  findInstance,
  instanceStateOf,
  instanceTasks,
  saveState,
  type InstanceRow,
} from './instances.repo.js';

export interface RunnerOptions {
  db: BpmDb;
  notify: NotifyTarget;
  /** Injected clock (default Date.now). */
  now?: () => number;
}

export interface Operator {
  id: number;
  name: string;
}

export interface ActOptions {
  claim?: (trx: BpmDb) => Promise<boolean>;
  afterPersist?: (trx: BpmDb, before: InstanceRow, after: InstanceRow) => Promise<void>;
}

export interface Step {
  instance: InstanceRow;
  state: InstanceState;
  tree: FlowNode;
  schema: FormSchema;
}

/**
 * Runs engine steps: loads the instance under a row lock, builds the engine context (frozen
 * tree and schema, the tenant's directory on the same transaction), applies the result and its
 * effects, all in one transaction. Concurrent actions on one instance queue on the lock, so the
 * second approval of an `or` node finds its task already canceled and gets a 409.
 */
export class InstanceRunner {
  private readonly now: () => number;

  constructor(private readonly o: RunnerOptions) {
    this.now = o.now ?? Date.now;
  }

  context(db: BpmDb, tenantId: number, tree: FlowNode, schema: FormSchema): EngineContext {
    let next = 0;
    return {
      tree,
      schema,
      directory: createTenantDirectory(db.withTables<IdentityTables>(), tenantId),
      now: this.now(),
      newTaskId: () => --next,
    };
  }

  private async frozenDefinition(db: BpmDb, instance: InstanceRow) {
    const definition = await db
      .selectFrom('bpm_definitions')
      .select(['node_tree', 'form_schema'])
      .where('id', '=', instance.definition_id)
      .executeTakeFirstOrThrow();
    return { tree: definition.node_tree as FlowNode, schema: definition.form_schema as FormSchema };
  }

  /** Applies `result` (computed from `before`) to the locked instance, inside `db`'s transaction. */
  async persist(
    db: BpmDb,
    instance: InstanceRow,
    tree: FlowNode,
    before: InstanceState,
    result: EngineResult,
    operator: Operator,
  ) {
    const taskIds = await saveState(db, instance, tree, before, result.state);
    await writeEffects(db, instance, result.effects, operator, this.o.notify, taskIds);
    const row = await findInstance(db, instance.tenant_id, instance.id);
    return { instance: row!, taskIds };
  }

  /**
   * One engine step on an existing instance, under its row lock. `claim`, when given, runs first
   * in the same transaction; when it returns false nothing happens and the result is null
   * (background jobs claim their work this way, so two replicas never act twice). `afterPersist`
   * runs after the new state is written, still in the transaction (audit rows).
   */
  async act(
    tenantId: number,
    instanceId: number,
    operator: Operator,
    step: (ctx: EngineContext, current: Step) => Promise<EngineResult>,
    options: ActOptions = {},
  ): Promise<Step | null> {
    const { claim, afterPersist } = options;
    return inTransaction(this.o.db, async (trx) => {
      const instance = await findInstance(trx, tenantId, instanceId, true);
      if (!instance) throw AppError.notFound('instance');
      if (claim && !(await claim(trx))) return null;
      const { tree, schema } = await this.frozenDefinition(trx, instance);
      const state = instanceStateOf(instance, await instanceTasks(trx, instance.id));
      const ctx = this.context(trx, tenantId, tree, schema);
      const result = await step(ctx, { instance, state, tree, schema });
      const saved = await this.persist(trx, instance, tree, state, result, operator);
      await afterPersist?.(trx, instance, saved.instance);
      return {
        instance: saved.instance,
        state: instanceStateOf(saved.instance, await instanceTasks(trx, instance.id)),
        tree,
        schema,
      };
    });
  }
}
