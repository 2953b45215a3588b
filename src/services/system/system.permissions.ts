import { permissionGuards, type PermissionSpec } from '../../platform/auth/permissions.js';

/**
 * The permission codes the system service declares. Error texts, templates and certificates are
 * the platform's: their routes also need a platform administrator. Settings, dictionaries and
 * notices are the caller's tenant's. Reading the effective notices, a dictionary's items and
 * one's own inbox needs no code.
 */
export const SYSTEM_PERMISSIONS = [
  {
    code: 'system:error-text:list',
    platformOnly: true,
    description: 'List the error codes with their default and current texts (platform)',
    routes: ['GET /api/v1/system/error-texts'],
  },
  {
    code: 'system:error-text:update',
    platformOnly: true,
    description: "Change or restore an error code's text (platform)",
    routes: ['PUT /api/v1/system/error-texts/:code', 'DELETE /api/v1/system/error-texts/:code'],
  },
  {
    code: 'system:notice:list',
    description: "List the tenant's notices, published or not",
    routes: ['GET /api/v1/notices', 'GET /api/v1/notices/:id'],
  },
  {
    code: 'system:notice:create',
    description: 'Create a notice',
    routes: ['POST /api/v1/notices'],
  },
  {
    code: 'system:notice:update',
    description: 'Change, publish or withdraw a notice',
    routes: ['PUT /api/v1/notices/:id'],
  },
  {
    code: 'system:notice:delete',
    description: 'Delete a notice',
    routes: ['DELETE /api/v1/notices/:id'],
  },
  {
    code: 'system:setting:list',
    description: "List the tenant's settings",
    routes: ['GET /api/v1/system/settings', 'GET /api/v1/system/settings/:key'],
  },
  {
    code: 'system:setting:update',
    description: 'Set or delete a setting of the tenant',
    routes: ['PUT /api/v1/system/settings/:key', 'DELETE /api/v1/system/settings/:key'],
  },
  {
    code: 'system:dict:list',
    description: "List the tenant's dictionaries",
    routes: ['GET /api/v1/system/dicts', 'GET /api/v1/system/dicts/:id'],
  },
  {
    code: 'system:dict:create',
    description: 'Create a dictionary',
    routes: ['POST /api/v1/system/dicts'],
  },
  {
    code: 'system:dict:update',
    description: 'Change a dictionary and its items',
    routes: ['PUT /api/v1/system/dicts/:id'],
  },
  {
    code: 'system:dict:delete',
    description: 'Delete a dictionary',
    routes: ['DELETE /api/v1/system/dicts/:id'],
  },
  {
    code: 'system:template:list',
    platformOnly: true,
    description: 'List the notification templates (platform)',
    routes: ['GET /api/v1/system/templates'],
  },
  {
    code: 'system:template:update',
    platformOnly: true,
    description: 'Change or restore a notification template (platform)',
    routes: [
      'PUT /api/v1/system/templates/:key/:lang',
      'DELETE /api/v1/system/templates/:key/:lang',
    ],
  },
  {
    code: 'system:cert:list',
    platformOnly: true,
    description: 'List and read the edge certificates (platform; never a private key)',
    routes: ['GET /api/v1/system/certificates', 'GET /api/v1/system/certificates/:id'],
  },
  {
    code: 'system:cert:create',
    platformOnly: true,
    description: 'Upload an edge certificate with its private key (platform)',
    routes: ['POST /api/v1/system/certificates'],
  },
  {
    code: 'system:cert:delete',
    platformOnly: true,
    description: 'Delete an edge certificate (platform)',
    routes: ['DELETE /api/v1/system/certificates/:id'],
  },
] as const satisfies readonly PermissionSpec[];

export type SystemPermission = (typeof SYSTEM_PERMISSIONS)[number]['code'];

export const { requirePermission, assertPermission } = permissionGuards(
  SYSTEM_PERMISSIONS.map((p) => p.code),
);
