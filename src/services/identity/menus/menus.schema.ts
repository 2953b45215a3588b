import { z } from 'zod';
import { id, timestamp } from '../identity.schema.js';

const name = z.string().trim().min(1).max(64).describe('a label or an i18n key such as nav.todo');
const sort = z.number().int().min(-1_000_000).max(1_000_000);
/** A console route: `/` then path segments, no query, no scheme (never an external link). */
const path = z
  .string()
  .max(200)
  .regex(/^\/[A-Za-z0-9/_:-]*$/, 'a console route such as /system/users');
const permissionCode = z
  .string()
  .max(100)
  .regex(/^[a-z][a-z0-9_-]*(:[a-z0-9_*-]+)*$/, 'a permission code');
const icon = z
  .string()
  .max(64)
  .regex(/^[A-Za-z0-9]+$/, 'an icon name');

export const MENU_KINDS = ['directory', 'page', 'button'] as const;

export const createMenuBody = z.object({
  name,
  kind: z.enum(MENU_KINDS),
  parent_id: id.nullable().optional(),
  path: path.nullable().optional().describe('pages: the console route'),
  permission_code: permissionCode
    .nullable()
    .optional()
    .describe('shown only to holders of this code; null: every signed-in user'),
  icon: icon.nullable().optional(),
  sort: sort.optional(),
  visible: z.boolean().optional(),
  platform_only: z
    .boolean()
    .optional()
    .describe('listed only for platform administrators (pages whose routes answer only them)'),
});
export type CreateMenuInput = z.infer<typeof createMenuBody>;

/** Partial update; `parent_id: null` moves the entry to the top. */
export const updateMenuBody = createMenuBody.partial();
export type UpdateMenuInput = z.infer<typeof updateMenuBody>;

export const menuView = z.object({
  id: z.number().int(),
  parent_id: z.number().int().nullable(),
  name: z.string(),
  kind: z.enum(MENU_KINDS),
  path: z.string().nullable(),
  permission_code: z.string().nullable(),
  icon: z.string().nullable(),
  sort: z.number().int(),
  visible: z.boolean(),
  platform_only: z.boolean(),
  created_at: timestamp,
  updated_at: timestamp,
});
export type MenuView = z.infer<typeof menuView>;
export type MenuNode = MenuView & { children: MenuNode[] };

/** One entry with its children, ordered by `sort`, then id. */
export const menuNode: z.ZodType<MenuNode> = menuView
  .extend({
    get children() {
      return z.array(menuNode);
    },
  })
  .meta({ id: 'MenuNode' });
