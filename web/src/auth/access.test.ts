import { describe, expect, it } from 'vitest';
import { accessOf, mayUse } from './access';

const user = (permissions: string[], is_platform_admin = false) => ({
  permissions,
  is_platform_admin,
});

describe('page access', () => {
  it('takes the longest whole-segment prefix, so /designer/7 needs what /designer needs', () => {
    expect(accessOf('/designer/7')).toEqual({ code: 'bpm:definition:list' });
    expect(accessOf('/designers')).toBeUndefined();
    expect(accessOf('/todo')).toBeUndefined();
  });

  it('lets everyone use pages that need nothing, and only holders use the others', () => {
    expect(mayUse(user([]), '/todo')).toBe(true);
    expect(mayUse(user([]), '/admin/users')).toBe(false);
    expect(mayUse(user(['system:user:list']), '/admin/users/12')).toBe(true);
    expect(mayUse(user(['system:*']), '/audit/logins')).toBe(true);
  });

  it('keeps platform pages from a tenant administrator holding every code', () => {
    expect(mayUse(user(['*']), '/admin/tenants')).toBe(false);
    expect(mayUse(user(['*']), '/approvals/instances')).toBe(false);
    expect(mayUse(user(['*'], true), '/admin/tenants')).toBe(true);
    // The error texts and templates are the platform's (docs/api.md, System).
    expect(mayUse(user(['*']), '/system/error-texts')).toBe(false);
    expect(mayUse(user(['*']), '/system/templates')).toBe(false);
    expect(mayUse(user(['*']), '/system/settings')).toBe(true);
    expect(mayUse(user(['system:template:list'], true), '/system/templates')).toBe(true);
  });
});
