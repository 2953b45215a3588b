import { createHash, createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  AuditWriteError,
  canonical,
  GENESIS_HASH,
  linkContent,
  linkHash,
  BusinessAuditWriter,
} from './business-audit.js';
import { maskSecrets } from './masking.js';

const KEY = Buffer.alloc(32, 1);
const writer = new BusinessAuditWriter(KEY);
const entry = {
  tenantId: 1,
  actorId: 5,
  actorName: 'alice',
  action: 'update',
  targetType: 'role',
  targetIds: [3],
  before: null,
  after: { name: 'x' },
  summary: 'updated role',
};
// Refusals happen before any query, so a handle that only says whether it is a transaction will do.
const inTransaction = { isTransaction: true } as never;
const outside = { isTransaction: false } as never;

describe('business audit writer', () => {
  it('refuses a write outside a transaction', async () => {
    await expect(writer.write(outside, entry)).rejects.toThrow(AuditWriteError);
  });

  it.each([
    ['no tenant', { tenantId: 0 }],
    ['no actor', { actorName: '' }],
    ['a negative actor', { actorId: -1 }],
    ['no target ids (unbounded scope)', { targetIds: [] }],
    ['an empty target id', { targetIds: [''] }],
  ])('refuses a write with %s', async (_label, change) => {
    await expect(writer.write(inTransaction, { ...entry, ...change })).rejects.toThrow(
      AuditWriteError,
    );
  });

  it('masks secrets at any depth (the shared masking of audit bodies)', () => {
    expect(
      maskSecrets({
        name: 'n',
        password: 'p',
        nested: [{ client_secret: 's', api_key: 'k', ok: 1 }],
        password_hash: 'h',
      }),
    ).toEqual({
      name: 'n',
      password: '***',
      nested: [{ client_secret: '***', api_key: '***', ok: 1 }],
      password_hash: '***',
    });
  });
});

describe('hash chain links', () => {
  const row = {
    tenant_id: 1,
    seq: 1,
    actor_id: 5,
    actor_name: 'alice',
    action: 'update',
    target_type: 'role',
    target_id: '3',
    before: { b: 1, a: 2 },
    after: null,
    summary: 's',
    created_at: '2026-11-21T00:00:00.000Z',
  };

  it('do not depend on JSON key order (jsonb reorders keys)', () => {
    expect(linkContent(row)).toBe(linkContent({ ...row, before: { a: 2, b: 1 } }));
    expect(canonical({ b: { d: 1, c: 2 }, a: [{ z: 1, y: 2 }] })).toEqual({
      a: [{ y: 2, z: 1 }],
      b: { c: 2, d: 1 },
    });
  });

  it('change when the content or the previous hash changes', () => {
    const base = linkHash(GENESIS_HASH, linkContent(row), KEY);
    expect(linkHash(GENESIS_HASH, linkContent({ ...row, summary: 't' }), KEY)).not.toBe(base);
    expect(linkHash('1'.repeat(64), linkContent(row), KEY)).not.toBe(base);
    expect(base).toMatch(/^[0-9a-f]{64}$/);
  });

  it('are keyed: another key, or none (a legacy link), gives another hash', () => {
    const content = linkContent(row);
    const keyed = linkHash(GENESIS_HASH, content, KEY);
    expect(keyed).toBe(
      createHmac('sha256', KEY).update(`${GENESIS_HASH}\n${content}`).digest('hex'),
    );
    expect(linkHash(GENESIS_HASH, content, Buffer.alloc(32, 2))).not.toBe(keyed);
    expect(linkHash(GENESIS_HASH, content, null)).toBe(
      createHash('sha256').update(`${GENESIS_HASH}\n${content}`).digest('hex'),
    );
  });
});
