import type { BusinessAuditWriter } from '../../../platform/audit/business-audit.js';
import { hasPermission, type Principal } from '../../../platform/auth/principal.js';
import { conflictOnReference } from '../../../platform/db/constraint-errors.js';
import { inTransaction } from '../../../platform/db/transaction.js';
import { AppError } from '../../../platform/errors.js';
import { auditChange } from '../audit.js';
import type { IdentityDb, IdentityTables } from '../identity.tables.js';
import { toIso } from '../identity.schema.js';
import type { Selectable } from 'kysely';
import { packageMenusOf } from '../packages/packages.service.js';
import type { CreateMenuInput, MenuNode, MenuView, UpdateMenuInput } from './menus.schema.js';

type MenuRow = Selectable<IdentityTables['iam_menus']>;

const toView = (row: MenuRow): MenuView => ({
  ...row,
  created_at: toIso(row.created_at),
  updated_at: toIso(row.updated_at),
});

/** Nests entries under their parents; `rows` come in sibling order (sort, then id). */
function nest(rows: MenuRow[]): MenuNode[] {
  const nodes = new Map(rows.map((r) => [r.id, { ...toView(r), children: [] as MenuNode[] }]));
  const roots: MenuNode[] = [];
  for (const row of rows) {
    const parent = row.parent_id === null ? undefined : nodes.get(row.parent_id);
    (parent ? parent.children : roots).push(nodes.get(row.id)!);
  }
  return roots;
}

/**
 * What a user sees: visible entries whose code they hold (or that need none), platform-only
 * entries for platform administrators alone, and, when their
 * tenant has a package, that it lists; a directory only when something under it is left, and a
 * button only under a page they see.
 */
export function menusFor(
  tree: MenuNode[],
  principal: Pick<Principal, 'permissions' | 'platformAdmin'>,
  allowed: Set<number> | null = null,
): MenuNode[] {
  const out: MenuNode[] = [];
  for (const node of tree) {
    if (!node.visible) continue;
    if (node.platform_only && !principal.platformAdmin) continue;
    if (node.permission_code !== null && !hasPermission(principal, node.permission_code)) continue;
    // The tenant's package lists the pages and buttons it may use; directories follow them.
    if (allowed && node.kind !== 'directory' && !allowed.has(node.id)) continue;
    const children = menusFor(node.children, principal, allowed);
    if (node.kind === 'directory' && children.length === 0) continue;
    out.push({ ...node, children });
  }
  return out;
}

const all = (db: IdentityDb) =>
  db.selectFrom('iam_menus').selectAll().orderBy('sort').orderBy('id').execute();

/**
 * The console's menu tree: one for the platform, edited by platform administrators (business
 * audit rows go to their own tenant); `GET /api/v1/menus/my` gives each user their part.
 */
export class MenusService {
  constructor(private readonly o: { db: IdentityDb; audit: BusinessAuditWriter }) {}

  async tree(): Promise<MenuNode[]> {
    return nest(await all(this.o.db));
  }

  async mine(principal: Principal): Promise<MenuNode[]> {
    return menusFor(
      await this.tree(),
      principal,
      await packageMenusOf(this.o.db, principal.tenantId),
    );
  }

  async get(menuId: number): Promise<MenuView> {
    const row = await this.find(this.o.db, menuId);
    if (!row) throw AppError.notFound('menu');
    return toView(row);
  }

  async create(principal: Principal, input: CreateMenuInput): Promise<MenuView> {
    return inTransaction(this.o.db, async (trx) => {
      if (input.parent_id) await this.checkParent(trx, input.parent_id, null);
      const row = await trx
        .insertInto('iam_menus')
        .values({
          name: input.name,
          kind: input.kind,
          parent_id: input.parent_id ?? null,
          path: input.path ?? null,
          permission_code: input.permission_code ?? null,
          icon: input.icon ?? null,
          sort: input.sort ?? 0,
          visible: input.visible ?? true,
          platform_only: input.platform_only ?? false,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      const after = toView(row);
      await auditChange(this.o.audit, trx, principal, {
        action: 'create',
        targetType: 'menu',
        targetId: row.id,
        before: null,
        after,
        summary: `created menu ${row.name}`,
      });
      return after;
    });
  }

  async update(principal: Principal, menuId: number, input: UpdateMenuInput): Promise<MenuView> {
    return inTransaction(this.o.db, async (trx) => {
      const before = await this.find(trx, menuId, true);
      if (!before) throw AppError.notFound('menu');
      if (input.parent_id) await this.checkParent(trx, input.parent_id, menuId);
      const row = await trx
        .updateTable('iam_menus')
        .set({ ...input, updated_at: new Date() })
        .where('id', '=', menuId)
        .returningAll()
        .executeTakeFirstOrThrow();
      const after = toView(row);
      await auditChange(this.o.audit, trx, principal, {
        action: 'update',
        targetType: 'menu',
        targetId: menuId,
        before: toView(before),
        after,
        summary: `updated menu ${row.name}`,
      });
      return after;
    });
  }

  async remove(principal: Principal, menuId: number): Promise<void> {
    await inTransaction(this.o.db, async (trx) => {
      const before = await this.find(trx, menuId, true);
      if (!before) throw AppError.notFound('menu');
      await conflictOnReference(
        trx.deleteFrom('iam_menus').where('id', '=', menuId).execute(),
        'the menu entry has children: delete or move them first',
      );
      await auditChange(this.o.audit, trx, principal, {
        action: 'delete',
        targetType: 'menu',
        targetId: menuId,
        before: toView(before),
        after: null,
        summary: `deleted menu ${before.name}`,
      });
    });
  }

  private find(db: IdentityDb, menuId: number, lock = false) {
    const query = db.selectFrom('iam_menus').selectAll().where('id', '=', menuId);
    return (lock ? query.forUpdate() : query).executeTakeFirst();
  }

  /** The parent exists and is not the entry itself or below it (no cycles). */
  private async checkParent(db: IdentityDb, parentId: number, self: number | null) {
    const bad = (message: string) =>
      AppError.validation([{ field: 'parent_id', rule: 'option', message }]);
    const rows = await all(db);
    const byId = new Map(rows.map((r) => [r.id, r]));
    if (!byId.has(parentId)) throw bad('no such menu entry');
    for (let at: number | null = parentId; at !== null; at = byId.get(at)?.parent_id ?? null) {
      if (at === self) throw bad('a menu entry cannot sit under itself');
    }
  }
}
