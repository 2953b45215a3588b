import type { Failpoints } from '../../../platform/failpoints.js';
import type { Kysely } from 'kysely';
import { inTransaction } from '../../../platform/db/transaction.js';
import { AppError, ERROR_CODES } from '../../../platform/errors.js';
import type { DirectoryOf } from '../bpm.ports.js';
import type { BpmDb } from '../bpm.tables.js';
import type {
  EngineContext,
  EngineResult,
  FileCatalog,
  FlowNode,
  FormSchema,
  InstanceState,
} from '../engine/index.js';
import type { DefinitionRow } from '../definitions/definitions.repo.js';
import type { AbsenceCache } from '../out-of-office/absence-cache.js';
import { absenceBook } from '../out-of-office/out-of-office.repo.js';
import { writeCommand } from './command-write.repo.js';
import { planEffects, writeCopies, writeDelegations, type NotifyTarget } from './effects.repo.js';
import { fileIdsOf, holdFiles } from './instance-files.repo.js';
import { FrozenDefinitions, type FrozenDefinition } from './frozen-definitions.js';
import { loadInstance, type InstanceRef } from './instance-load.repo.js';
import { instanceStateOf, type InstanceRow } from './state.repo.js';

export type { InstanceRef } from './instance-load.repo.js';

const NO_FILES: FileCatalog = { files: async () => [] };

export interface RunnerOptions {
  db: BpmDb;
  /**
   * Runs first in every command's transaction: records that the request's Idempotency-Key led
   * to this change, in the change's own transaction, and refuses the change when a retry took
   * the key over (IdempotencyService.fence). Unset (background jobs): nothing to record.
   */
  fence?: ((trx: BpmDb) => Promise<void>) | undefined;
  /** `after_commit_before_dispatch`: the change and its outbox rows committed, nothing sent. */
  failpoints?: Failpoints | undefined;
  notify: NotifyTarget;
  /**
   * Identity's directory of a tenant (a port): users from its cache, anything it reads from the
   * tables read in the command's own transaction.
   */
  directoryOf: DirectoryOf;
  /**
   * The files service's files of a tenant (a port), for `file` fields. Unset (tests of the
   * runner alone): no file exists, so a form naming one is refused.
   */
  filesOf?: <DB>(tenantId: number, on?: Kysely<DB>) => FileCatalog;
  /**
   * Out-of-office periods through the platform cache (the out-of-office service invalidates
   * it). Unset (runners built by tests): every lookup reads the table.
   */
  absences?: AbsenceCache | undefined;
  /** Definition versions kept in process (default: a FrozenDefinitions of its own). */
  definitions?: FrozenDefinitions | undefined;
  /** Injected clock (default Date.now). */
  now?: () => number;
}

export interface Operator {
  id: number;
  name: string;
}

/** An instance as one command sees it: the row, its engine state, its frozen definition. */
export interface Loaded {
  instance: InstanceRow;
  state: InstanceState;
  tree: FlowNode;
  schema: FormSchema;
  /** The nodes `userId` reached the instance through (CC, acts), read with it when asked. */
  reachedBy?: { userId: number; nodeIds: string[] };
}

export interface ActOptions {
  /**
   * Runs first, under the row lock, before the engine; returning false makes the command a
   * no-op answering null (background jobs claim their work this way, so two replicas never act
   * twice). Throwing refuses the command (visibility: 404).
   */
  guard?: (trx: BpmDb, loaded: Loaded) => Promise<boolean>;
  /** Runs after the new state is written, in the same transaction (audit rows). */
  afterPersist?: (trx: BpmDb, before: InstanceRow, after: InstanceRow) => Promise<void>;
  /**
   * The task the command acts on: a 40900 refusal then carries the state that won,
   * `{task: {id, status, result}, instance: {id, status}}`, read under the same lock.
   */
  taskId?: number;
  /** The caller, whose reached nodes are read with the instance (for `guard`'s viewerOf). */
  viewerId?: number;
}

/** The frozen definition of a loaded instance, as `context` takes it. */
export const definitionOf = (loaded: Loaded) => ({
  tree: loaded.tree,
  schema: loaded.schema,
  key: loaded.instance.definition_key,
});

/** The engine's state with its temporary (negative) task ids replaced by the stored ones. */
function withStoredIds(state: InstanceState, ids: Map<number, number>): InstanceState {
  if (ids.size === 0) return state;
  return { ...state, tasks: state.tasks.map((t) => ({ ...t, id: ids.get(t.id) ?? t.id })) };
}

/**
 * The one command path of every start, action and timeout: load the instance, its tasks and its
 * frozen definition once under the row lock, run the engine, write the diff and the effects,
 * and answer from the result, all in one transaction. Concurrent commands on one instance queue
 * on the lock, so the second approval of an `or` node finds its task already canceled (40900).
 * Nothing is read back through a caller's visibility and nothing stored is validated again.
 */
export class InstanceRunner {
  private readonly now: () => number;
  private readonly definitions: FrozenDefinitions;

  constructor(private readonly o: RunnerOptions) {
    this.now = o.now ?? Date.now;
    this.definitions = o.definitions ?? new FrozenDefinitions();
  }

  /** The version a start runs on, as its instance's later commands will load it (kept). */
  frozen(definition: DefinitionRow): FrozenDefinition {
    return this.definitions.remember(definition);
  }

  /** The engine's view of one instance's world: its tenant's directory and absences, now. */
  context(
    db: BpmDb,
    tenantId: number,
    definition: { tree: FlowNode; schema: FormSchema; key: string },
  ): EngineContext {
    let next = 0;
    const now = this.now();
    return {
      tree: definition.tree,
      schema: definition.schema,
      directory: this.o.directoryOf(tenantId, db),
      files: this.o.filesOf?.(tenantId, db) ?? NO_FILES,
      absences:
        this.o.absences?.book(db, tenantId, definition.key, now) ??
        absenceBook(db, tenantId, definition.key, now),
      now,
      newTaskId: () => --next,
    };
  }

  /**
   * The instance (tenant-scoped, by id or by one of its tasks), its tasks and frozen definition,
   * and with `viewerId` the nodes that user reached it through: one statement (the definition is
   * kept in process). Undefined when not found. `lock` takes the instance's row lock.
   */
  async load(
    db: BpmDb,
    tenantId: number,
    ref: InstanceRef,
    options: { lock?: boolean; viewerId?: number | undefined } = {},
  ): Promise<Loaded | undefined> {
    const rows = await loadInstance(db, tenantId, ref, options);
    if (!rows) return undefined;
    const { instance, tasks, reached } = rows;
    const { tree, schema } = await this.definitions.of(db, tenantId, instance.definition_id);
    return {
      instance,
      state: instanceStateOf(instance, tasks),
      tree,
      schema,
      ...(reached ? { reachedBy: { userId: options.viewerId!, nodeIds: reached } } : {}),
    };
  }

  /**
   * Writes `result` (computed from `loaded`) and its effects; answers the state it produced. The
   * state, tasks, log and outbox rows go in one statement; CC copies before it (a CC notice
   * depends on whether the copy is new), delegation records and held files after, when there
   * are any.
   */
  async apply(
    trx: BpmDb,
    loaded: Loaded,
    result: EngineResult,
    operator: Operator,
  ): Promise<Loaded> {
    const { effects } = result;
    const copiedBefore = await writeCopies(trx, loaded.instance, effects);
    const planned = planEffects(loaded.instance, effects, operator, this.o.notify, copiedBefore);
    const { row, ids } = await writeCommand(
      trx,
      loaded.instance,
      loaded.tree,
      loaded.state,
      result.state,
      planned,
    );
    await writeDelegations(trx, row.tenant_id, effects, ids);
    const held = fileIdsOf(loaded.schema, result.state.form);
    const before = fileIdsOf(loaded.schema, loaded.state.form);
    if (held.join() !== before.join()) await holdFiles(trx, row.tenant_id, row.id, held, before);
    return { ...loaded, instance: row, state: withStoredIds(result.state, ids) };
  }

  /** The request's Idempotency-Key fence, in a command's transaction (see RunnerOptions). */
  async fence(trx: BpmDb): Promise<void> {
    await this.o.fence?.(trx);
  }

  /** One engine step on an existing instance, under its row lock (see the class comment). */
  async act(
    tenantId: number,
    ref: InstanceRef,
    operator: Operator,
    step: (ctx: EngineContext, current: Loaded) => Promise<EngineResult>,
    options: ActOptions = {},
  ): Promise<Loaded | null> {
    const done = await inTransaction(this.o.db, async (trx) => {
      await this.fence(trx);
      const loaded = await this.load(trx, tenantId, ref, {
        lock: true,
        viewerId: options.viewerId,
      });
      if (!loaded) throw AppError.notFound('taskId' in ref ? 'task' : 'instance');
      if (options.guard && !(await options.guard(trx, loaded))) return null;
      const ctx = this.context(trx, tenantId, definitionOf(loaded));
      const result = await step(ctx, loaded).catch((err: unknown) => {
        throw withWinningState(err, loaded, options.taskId);
      });
      const after = await this.apply(trx, loaded, result, operator);
      await options.afterPersist?.(trx, loaded.instance, after.instance);
      return after;
    });
    await this.o.failpoints?.hit('after_commit_before_dispatch');
    return done;
  }
}

/** A 40900 on a task carries the state that won, so the loser sees it without another request. */
function withWinningState(err: unknown, loaded: Loaded, taskId: number | undefined): unknown {
  if (taskId === undefined || !(err instanceof AppError)) return err;
  if (err.code !== ERROR_CODES.CONFLICT || err.details !== null) return err;
  const task = loaded.state.tasks.find((t) => t.id === taskId);
  if (!task) return err;
  return new AppError(ERROR_CODES.CONFLICT, err.message, {
    task: { id: task.id, status: task.status, result: task.result },
    instance: { id: loaded.instance.id, status: loaded.instance.status },
  });
}
