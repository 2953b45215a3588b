import { describe, expect, it } from 'vitest';
import { AppError } from '../http/errors.js';
import {
  hasPermission,
  normalizePermissions,
  principalFromHeaders,
  signedAuthHeaders,
  stripAuthHeaders,
  type Principal,
} from './principal.js';

const SECRET = 'test-signing-secret';
const principal: Principal = {
  userId: 7,
  tenantId: 2,
  username: 'zoë,admin',
  roles: ['auditor', 'ops'],
  deptId: null,
  platformAdmin: false,
  permissions: ['system:log:audit', 'system:user:list'],
  sessionId: 11,
};

describe('permission header', () => {
  it('is deduplicated and sorted', () => {
    expect(normalizePermissions(['b:x', 'a:y', 'b:x'])).toEqual(['a:y', 'b:x']);
  });

  it('compresses a super admin to *', () => {
    expect(normalizePermissions(['a:b', '*', 'c:d'])).toEqual(['*']);
  });

  it('refuses a permission set over 16 KB instead of truncating it', () => {
    const many = Array.from({ length: 2000 }, (_, i) => `module:feature:action${i}`);
    expect(() => signedAuthHeaders({ ...principal, permissions: many }, 'r1', SECRET)).toThrow(
      AppError,
    );
  });

  it('grants exact codes, * and prefix wildcards only', () => {
    expect(hasPermission({ permissions: ['*'] }, 'x:y')).toBe(true);
    expect(hasPermission({ permissions: ['system:user:*'] }, 'system:user:create')).toBe(true);
    expect(hasPermission({ permissions: ['system:user:*'] }, 'system:role:create')).toBe(false);
    expect(hasPermission({ permissions: ['system:user:list'] }, 'system:user:listx')).toBe(false);
  });
});

describe('signed identity headers', () => {
  it('round-trip through signing and verification', () => {
    const headers = signedAuthHeaders(principal, 'req-1', SECRET);
    expect(principalFromHeaders(headers, 'req-1', SECRET)).toEqual(principal);
  });

  it('treat a request without identity headers as anonymous', () => {
    expect(principalFromHeaders({ host: 'x' }, 'req-1', SECRET)).toBeNull();
  });

  it.each([
    ['a tampered user id', { 'x-auth-user-id': '1' }],
    ['a tampered permission list', { 'x-auth-permissions': '*' }],
    ['a forged signature', { 'x-auth-signature': 'f'.repeat(64) }],
    ['a malformed signature', { 'x-auth-signature': 'not-hex' }],
  ])('refuse %s', (_label, change) => {
    const headers = { ...signedAuthHeaders(principal, 'req-1', SECRET), ...change };
    expect(() => principalFromHeaders(headers, 'req-1', SECRET)).toThrow(/untrusted/);
  });

  it('refuse headers signed with another key or for another request', () => {
    const headers = signedAuthHeaders(principal, 'req-1', SECRET);
    expect(() => principalFromHeaders(headers, 'req-1', 'other')).toThrow(/untrusted/);
    expect(() => principalFromHeaders(headers, 'req-2', SECRET)).toThrow(/untrusted/);
  });

  it('refuse stale headers (replay)', () => {
    const headers = signedAuthHeaders(principal, 'req-1', SECRET, Date.now() - 120_000);
    expect(() => principalFromHeaders(headers, 'req-1', SECRET)).toThrow(/untrusted/);
  });

  it('refuse a lone spoofed header', () => {
    expect(() => principalFromHeaders({ 'x-auth-user-id': '1' }, 'req-1', SECRET)).toThrow(
      /untrusted/,
    );
  });

  it('strip every client X-Auth-* header whatever its case', () => {
    const headers: Record<string, string> = {
      'x-auth-user-id': '1',
      'X-Auth-Tenant-Id': '2',
      accept: '*/*',
    };
    stripAuthHeaders(headers);
    expect(headers).toEqual({ accept: '*/*' });
  });
});
