import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AppError } from '../errors.js';
import {
  bodyDigest,
  EMPTY_BODY_SHA256,
  hasPermission,
  mayManageUser,
  missingPermissions,
  normalizePermissions,
  gatewayContextFromHeaders,
  signedGatewayHeaders,
  signingKeyOf,
  stripAuthHeaders,
  type GatewayContext,
  type Principal,
  type SignedTarget,
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
    const context = { principal: { ...principal, permissions: many }, clientIp: '::1' };
    expect(() => signedGatewayHeaders(context, TARGET, SECRET)).toThrow(AppError);
  });

  it('grants exact codes, * and prefix wildcards only', () => {
    expect(hasPermission({ permissions: ['*'] }, 'x:y')).toBe(true);
    expect(hasPermission({ permissions: ['system:user:*'] }, 'system:user:create')).toBe(true);
    expect(hasPermission({ permissions: ['system:user:*'] }, 'system:role:create')).toBe(false);
    expect(hasPermission({ permissions: ['system:user:list'] }, 'system:user:listx')).toBe(false);
  });
});

const TARGET: SignedTarget = {
  requestId: 'req-1',
  method: 'POST',
  path: '/api/v1/users?page=1',
  bodySha256: bodyDigest(Buffer.from('{"username":"zoe"}')),
};
const signed = (
  target = TARGET,
  now?: number,
  context: GatewayContext = { principal, clientIp: '203.0.113.7' },
) => signedGatewayHeaders(context, target, SECRET, now);

describe('managing another user', () => {
  const caller = (permissions: string[], platformAdmin = false) => ({ permissions, platformAdmin });
  const user = (permissions: string[], isPlatformAdmin = false) => ({
    permissions,
    isPlatformAdmin,
  });

  it('names the codes a caller lacks, once each, sorted', () => {
    expect(
      missingPermissions(caller(['system:user:*']), ['b:x', 'system:user:list', 'a:y', 'b:x']),
    ).toEqual(['a:y', 'b:x']);
  });

  it('allows a user whose every permission the caller holds', () => {
    const admin = caller(['system:user:list', 'system:user:update', 'system:log:*']);
    expect(mayManageUser(admin, user([]))).toBe(true);
    expect(mayManageUser(admin, user(['system:user:list', 'system:log:login']))).toBe(true);
    expect(mayManageUser(caller(['*']), user(['*']))).toBe(true);
    expect(mayManageUser(caller(['system:*']), user(['system:user:*']))).toBe(true);
  });

  it('refuses a user holding anything more, `*` above all', () => {
    const admin = caller(['system:user:list', 'system:user:create', 'system:user:update']);
    expect(mayManageUser(admin, user(['*']))).toBe(false);
    expect(mayManageUser(admin, user(['system:user:list', 'system:user:delete']))).toBe(false);
    // A wider grant is more even when every code it covers is listed one by one.
    expect(mayManageUser(admin, user(['system:user:*']))).toBe(false);
    expect(mayManageUser(caller(['system:*']), user(['*']))).toBe(false);
  });

  it('leaves a platform administrator to platform administrators', () => {
    expect(mayManageUser(caller(['*']), user(['*'], true))).toBe(false);
    expect(mayManageUser(caller(['*'], true), user(['*'], true))).toBe(true);
  });
});

describe('signed identity headers', () => {
  it('round-trip through signing and verification', () => {
    const headers = signed();
    expect(gatewayContextFromHeaders(headers, TARGET, SECRET)).toEqual({
      principal,
      clientIp: '203.0.113.7',
      nonce: headers['x-auth-nonce'],
    });
  });

  it('carry only the client address on a public route', () => {
    const headers = signed(TARGET, undefined, { principal: null, clientIp: '198.51.100.2' });
    expect(headers['x-auth-user-id']).toBeUndefined();
    expect(gatewayContextFromHeaders(headers, TARGET, SECRET)).toEqual({
      principal: null,
      clientIp: '198.51.100.2',
      nonce: headers['x-auth-nonce'],
    });
  });

  it('treat a request without identity headers as not from the gateway', () => {
    expect(gatewayContextFromHeaders({ host: 'x' }, TARGET, SECRET)).toBeNull();
  });

  it('carry a fresh server-generated nonce on every request', () => {
    expect(signed()['x-auth-nonce']).toMatch(/^[0-9a-f-]{36}$/);
    expect(signed()['x-auth-nonce']).not.toBe(signed()['x-auth-nonce']);
  });

  it.each([
    ['a tampered user id', { 'x-auth-user-id': '1' }],
    ['a tampered permission list', { 'x-auth-permissions': '*' }],
    ['a tampered client address', { 'x-auth-client-ip': '10.0.0.1' }],
    ['a tampered nonce', { 'x-auth-nonce': 'n' }],
    ['a forged signature', { 'x-auth-signature': 'f'.repeat(64) }],
    ['a malformed signature', { 'x-auth-signature': 'not-hex' }],
  ])('refuse %s', (_label, change) => {
    const headers = { ...signed(), ...change };
    expect(() => gatewayContextFromHeaders(headers, TARGET, SECRET)).toThrow(/untrusted/);
  });

  it('refuse a principal header set with one header removed (not anonymous)', () => {
    const headers: Record<string, string> = signed();
    delete headers['x-auth-permissions'];
    expect(() => gatewayContextFromHeaders(headers, TARGET, SECRET)).toThrow(/untrusted/);
  });

  it('verify the same with the key imported once as with the secret itself', () => {
    const key = signingKeyOf(SECRET);
    const context = { principal, clientIp: '203.0.113.7' };
    const now = Date.now();
    const bySecret = signedGatewayHeaders(context, TARGET, SECRET, now, 'nonce-1');
    const byKey = signedGatewayHeaders(context, TARGET, key, now, 'nonce-1');
    expect(byKey).toEqual(bySecret);
    expect(gatewayContextFromHeaders(bySecret, TARGET, key)?.principal).toEqual(principal);
    expect(() => gatewayContextFromHeaders(bySecret, TARGET, signingKeyOf('other'))).toThrow(
      /untrusted/,
    );
  });

  it('digest an empty body as SHA-256 of no bytes', () => {
    expect(EMPTY_BODY_SHA256).toBe(createHash('sha256').update(Buffer.alloc(0)).digest('hex'));
    expect(bodyDigest(new Uint8Array(0))).toBe(EMPTY_BODY_SHA256);
    expect(bodyDigest(Buffer.from('{}'))).toBe(createHash('sha256').update('{}').digest('hex'));
  });

  it('refuse headers signed with another key', () => {
    expect(() => gatewayContextFromHeaders(signed(), TARGET, 'other')).toThrow(/untrusted/);
  });

  it.each([
    ['another request id', { requestId: 'req-2' }],
    ['another method', { method: 'DELETE' }],
    ['another route', { path: '/api/v1/roles?page=1' }],
    ['a sub-path', { path: '/api/v1/users/1?page=1' }],
    ['another query string', { path: '/api/v1/users?page=2' }],
    ['no query string', { path: '/api/v1/users' }],
    ['another body', { bodySha256: bodyDigest(Buffer.from('{"username":"eve"}')) }],
    ['no body', { bodySha256: bodyDigest(Buffer.alloc(0)) }],
  ])('refuse a captured set replayed with %s', (_label, change) => {
    const headers = signed();
    expect(() => gatewayContextFromHeaders(headers, { ...TARGET, ...change }, SECRET)).toThrow(
      /untrusted/,
    );
  });

  it('refuse stale headers (replay later)', () => {
    const headers = signed(TARGET, Date.now() - 120_000);
    expect(() => gatewayContextFromHeaders(headers, TARGET, SECRET)).toThrow(/untrusted/);
  });

  it('refuse a lone spoofed header', () => {
    expect(() => gatewayContextFromHeaders({ 'x-auth-user-id': '1' }, TARGET, SECRET)).toThrow(
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
