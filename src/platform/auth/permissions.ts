import type { FastifyRequest } from 'fastify';
import { AppError, ERROR_CODES } from '../errors.js';
import { principalOf } from './guard.js';
import { hasPermission, type Principal } from './principal.js';

/**
 * Permission codes: each service module declares the codes it defines (what each allows and the
 * routes that require it); src/start.ts joins them into the catalogue that roles grant from and
 * `GET /api/v1/permissions` serves.
 */
export interface PermissionSpec {
  code: string;
  description: string;
  routes: readonly string[];
  /**
   * Its routes also need a platform administrator (the platform's own records: tenants, menus,
   * packages, error texts, templates, certificates, monitoring, the code generator): granted in
   * a tenant's role it opens nothing.
   */
  platformOnly?: boolean;
}

/**
 * The guards of one set of codes: `requirePermission` (a route pre-handler) and
 * `assertPermission` (for a code only some inputs of a route need) accept only those codes, so
 * a route cannot require a code no module declares. The caller must hold the code, `*`, or a
 * `prefix:*` grant covering it; 40300 otherwise.
 */
export function permissionGuards<const Code extends string>(_codes: readonly Code[]) {
  function assertPermission(principal: Principal, code: Code): void {
    if (!hasPermission(principal, code)) {
      throw new AppError(ERROR_CODES.FORBIDDEN, `permission ${code} required`);
    }
  }
  const requirePermission = (code: Code) => async (request: FastifyRequest) =>
    assertPermission(principalOf(request), code);
  return { requirePermission, assertPermission };
}

/** Whether a role may grant `code`: `*`, a catalogue code, or `prefix:*` covering one of them. */
export function grantableIn(catalogue: readonly PermissionSpec[]) {
  const codes = new Set(catalogue.map((p) => p.code));
  return (code: string): boolean => {
    if (code === '*' || codes.has(code)) return true;
    if (!code.endsWith(':*')) return false;
    const prefix = code.slice(0, -1);
    return catalogue.some((p) => p.code.startsWith(prefix));
  };
}
