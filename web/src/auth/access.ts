import { grants } from './AuthContext';

/** What a console page needs: a permission code, and for some a platform administrator. */
export interface PageAccess {
  code?: string;
  /** The server answers these pages' calls only for platform administrators. */
  platformOnly?: boolean;
}

/**
 * The console's pages that need more than a signed-in user, by path prefix (the longest
 * matching prefix wins). The route guard shows the 403 page for a deep link the caller may not
 * use, and the navigation hides it; the codes are the ones the server's routes require.
 */
export const PAGE_ACCESS: Record<string, PageAccess> = {
  '/designer': { code: 'bpm:definition:list' },
  '/admin/users': { code: 'system:user:list' },
  '/admin/roles': { code: 'system:role:list' },
  '/admin/departments': { code: 'system:dept:list' },
  '/admin/posts': { code: 'system:post:list' },
  '/admin/tenants': { code: 'system:tenant:list', platformOnly: true },
  '/admin/packages': { code: 'system:package:list', platformOnly: true },
  '/admin/menus': { code: 'system:menu:list', platformOnly: true },
  '/approvals/instances': { platformOnly: true },
  '/approvals/analytics': { platformOnly: true },
  '/audit/operations': { code: 'system:log:operation' },
  '/audit/logins': { code: 'system:log:login' },
  '/audit/business': { code: 'system:log:audit' },
  '/monitor': { code: 'monitor:service:list', platformOnly: true },
  '/system/settings': { code: 'system:setting:list' },
  '/system/dicts': { code: 'system:dict:list' },
  '/system/notices': { code: 'system:notice:list' },
  '/system/error-texts': { code: 'system:error-text:list', platformOnly: true },
  '/system/templates': { code: 'system:template:list', platformOnly: true },
  '/system/files': { code: 'system:file:list' },
  '/system/oauth-clients': { platformOnly: true },
  '/system/codegen': { code: 'system:codegen:preview', platformOnly: true },
};

/** The access rule for a path: its longest listed prefix (whole segments), or none. */
export function accessOf(path: string): PageAccess | undefined {
  let best: string | undefined;
  for (const prefix of Object.keys(PAGE_ACCESS)) {
    const under = path === prefix || path.startsWith(`${prefix}/`);
    if (under && (!best || prefix.length > best.length)) best = prefix;
  }
  return best === undefined ? undefined : PAGE_ACCESS[best];
}

/** Whether a caller with these grants may use the page at `path`. */
export function mayUse(
  caller: { permissions: readonly string[]; is_platform_admin: boolean },
  path: string,
): boolean {
  const access = accessOf(path);
  if (!access) return true;
  if (access.platformOnly && !caller.is_platform_admin) return false;
  return access.code === undefined || grants(caller.permissions, access.code);
}
