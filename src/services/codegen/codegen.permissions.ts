import { permissionGuards, type PermissionSpec } from '../../platform/auth/permissions.js';

/** The permission codes the code generator declares. */
export const CODEGEN_PERMISSIONS = [
  {
    code: 'system:codegen:preview',
    platformOnly: true,
    description: 'See the files the code generator would write for a table description',
    routes: ['GET /api/v1/codegen/status', 'POST /api/v1/codegen/preview'],
  },
  {
    code: 'system:codegen:write',
    platformOnly: true,
    description:
      'Write a generated service module into the project (only where CODEGEN_WRITE_ENABLED=true)',
    routes: ['POST /api/v1/codegen/write'],
  },
] as const satisfies readonly PermissionSpec[];

export const { requirePermission } = permissionGuards(CODEGEN_PERMISSIONS.map((p) => p.code));
