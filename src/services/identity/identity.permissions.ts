import { permissionGuards, type PermissionSpec } from '../../platform/auth/permissions.js';

/** The permission codes the identity service declares: what each allows, the routes that need it. */
export const IDENTITY_PERMISSIONS = [
  {
    code: 'system:user:list',
    description: 'List and read users, and list their sessions',
    routes: ['GET /api/v1/users', 'GET /api/v1/users/:id', 'GET /api/v1/sessions'],
  },
  { code: 'system:user:create', description: 'Create users', routes: ['POST /api/v1/users'] },
  {
    code: 'system:user:update',
    description: 'Update users (profile, status, roles) and sign their sessions out',
    routes: ['PUT /api/v1/users/:id', 'DELETE /api/v1/sessions/:id'],
  },
  {
    code: 'system:user:reset-password',
    description: 'Set another user’s password or e-mail address (with system:user:update)',
    routes: ['PUT /api/v1/users/:id'],
  },
  { code: 'system:user:delete', description: 'Delete users', routes: ['DELETE /api/v1/users/:id'] },
  {
    code: 'system:role:list',
    description: 'List and read roles',
    routes: ['GET /api/v1/roles', 'GET /api/v1/roles/:id'],
  },
  { code: 'system:role:create', description: 'Create roles', routes: ['POST /api/v1/roles'] },
  {
    code: 'system:role:update',
    description: 'Update roles, including their permission codes',
    routes: ['PUT /api/v1/roles/:id'],
  },
  { code: 'system:role:delete', description: 'Delete roles', routes: ['DELETE /api/v1/roles/:id'] },
  {
    code: 'system:dept:list',
    description: 'List and read departments and the department tree',
    routes: [
      'GET /api/v1/departments',
      'GET /api/v1/departments/tree',
      'GET /api/v1/departments/:id',
    ],
  },
  {
    code: 'system:dept:create',
    description: 'Create departments',
    routes: ['POST /api/v1/departments'],
  },
  {
    code: 'system:dept:update',
    description: 'Update departments (name, parent, leader)',
    routes: ['PUT /api/v1/departments/:id'],
  },
  {
    code: 'system:dept:delete',
    description: 'Delete departments',
    routes: ['DELETE /api/v1/departments/:id'],
  },
  {
    code: 'system:tenant:list',
    platformOnly: true,
    description: 'List and read tenants (platform administrators only)',
    routes: ['GET /api/v1/tenants', 'GET /api/v1/tenants/:id'],
  },
  {
    code: 'system:tenant:create',
    platformOnly: true,
    description: 'Create tenants with their first administrator (platform administrators only)',
    routes: ['POST /api/v1/tenants'],
  },
  {
    code: 'system:tenant:update',
    platformOnly: true,
    description: 'Update or disable tenants (platform administrators only)',
    routes: ['PUT /api/v1/tenants/:id'],
  },
  {
    code: 'system:tenant:delete',
    platformOnly: true,
    description: 'Delete tenants (platform administrators only)',
    routes: ['DELETE /api/v1/tenants/:id'],
  },
  {
    code: 'system:post:list',
    description: 'List and read the posts (job positions) of the tenant',
    routes: ['GET /api/v1/posts', 'GET /api/v1/posts/:id'],
  },
  { code: 'system:post:create', description: 'Create posts', routes: ['POST /api/v1/posts'] },
  {
    code: 'system:post:update',
    description: 'Change posts (code, name, order, status)',
    routes: ['PUT /api/v1/posts/:id'],
  },
  {
    code: 'system:post:delete',
    description: 'Delete posts nobody holds',
    routes: ['DELETE /api/v1/posts/:id'],
  },
  {
    code: 'system:package:list',
    platformOnly: true,
    description: 'List and read tenant packages (platform administrators only)',
    routes: ['GET /api/v1/packages', 'GET /api/v1/packages/:id'],
  },
  {
    code: 'system:package:create',
    platformOnly: true,
    description: 'Create tenant packages (platform administrators only)',
    routes: ['POST /api/v1/packages'],
  },
  {
    code: 'system:package:update',
    platformOnly: true,
    description: 'Change tenant packages: menus and storage quota (platform administrators only)',
    routes: ['PUT /api/v1/packages/:id'],
  },
  {
    code: 'system:package:delete',
    platformOnly: true,
    description: 'Delete tenant packages no tenant uses (platform administrators only)',
    routes: ['DELETE /api/v1/packages/:id'],
  },
  {
    code: 'system:menu:list',
    platformOnly: true,
    description: 'List and read the menu tree (platform administrators only)',
    routes: ['GET /api/v1/menus', 'GET /api/v1/menus/:id'],
  },
  {
    code: 'system:menu:create',
    platformOnly: true,
    description: 'Create menu entries (platform administrators only)',
    routes: ['POST /api/v1/menus'],
  },
  {
    code: 'system:menu:update',
    platformOnly: true,
    description: 'Change menu entries (platform administrators only)',
    routes: ['PUT /api/v1/menus/:id'],
  },
  {
    code: 'system:menu:delete',
    platformOnly: true,
    description: 'Delete menu entries without children (platform administrators only)',
    routes: ['DELETE /api/v1/menus/:id'],
  },
] as const satisfies readonly PermissionSpec[];

export type IdentityPermission = (typeof IDENTITY_PERMISSIONS)[number]['code'];

/** `requirePermission` and `assertPermission` that take only these codes (a type error otherwise). */
export const { requirePermission, assertPermission } = permissionGuards(
  IDENTITY_PERMISSIONS.map((p) => p.code),
);
