import { permissionGuards, type PermissionSpec } from '../../platform/auth/permissions.js';

/**
 * The permission codes the files service declares. Uploading needs none (every signed-in user
 * attaches files to forms), and neither do reading or deleting one's own files; another user's
 * files need these codes.
 */
export const FILES_PERMISSIONS = [
  {
    code: 'system:file:list',
    description:
      "List the tenant's files and its storage usage; get links to files other users uploaded (GET /api/v1/files/:id/url)",
    // Listed: the routes the code guards whole; a link to one's own file needs no code.
    routes: ['GET /api/v1/files', 'GET /api/v1/files/usage'],
  },
  {
    code: 'system:file:delete',
    description: 'Delete files other users uploaded (DELETE /api/v1/files/:id)',
    // None guarded whole: deleting one's own file needs no code.
    routes: [],
  },
] as const satisfies readonly PermissionSpec[];

export type FilesPermission = (typeof FILES_PERMISSIONS)[number]['code'];

export const { requirePermission, assertPermission } = permissionGuards(
  FILES_PERMISSIONS.map((p) => p.code),
);
