import { permissionGuards } from '../../platform/auth/permissions.js';

/**
 * Auth declares no permission code of its own: its session routes require codes the identity
 * service declares (they administer identity's users). The module lists them as `uses`, and a
 * test checks that the catalogue holds them.
 */
export const AUTH_USES = ['system:user:list', 'system:user:update'] as const;

export const { requirePermission } = permissionGuards(AUTH_USES);
