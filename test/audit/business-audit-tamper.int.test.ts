import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  linkContent,
  linkHash,
  GENESIS_HASH,
  type AuditTables,
} from '../../src/platform/audit/business-audit.js';
import { verifyChain } from '../../src/services/audit/business-audit/chain-verify.js';
import {
  signCheckpoint,
  writeCheckpoints,
} from '../../src/services/audit/business-audit/checkpoints.js';
import { createLogger } from '../../src/platform/logging/logger.js';
import { startTestPlatform, uniq, type TestPlatform } from '../helpers/platform.js';

let platform: TestPlatform;
let admin: string;
let dir: string;
const db = () => platform.kernel.database.db.withTables<AuditTables>() as Kysely<AuditTables>;
const chain = () => platform.settings.auditChain;

beforeAll(async () => {
  // The tests run checkpoint rounds themselves; the background one must not run in between.
  platform = await startTestPlatform({ AUDIT_CHECKPOINT_INTERVAL: '1h' });
  admin = await platform.adminToken();
  dir = await mkdtemp(join(tmpdir(), 'approva-checkpoints-'));
});
afterAll(async () => {
  await platform?.close();
  await rm(dir, { recursive: true, force: true });
});

/** A fresh tenant with `links` business-audit rows (one role created per link). */
async function tenantWithChain(links: number) {
  const code = uniq('t').toLowerCase();
  const res = await platform.call('POST', '/api/v1/tenants', {
    token: admin,
    body: { code, name: 'Tamper', admin_username: 'chief', admin_password: 'Chief-Passw0rd!' },
  });
  expect(res.status).toBe(200);
  const tenantId = res.body.data.id as number;
  const token = (await platform.login('chief', 'Chief-Passw0rd!', code)).access_token;
  const before = await headSeq(tenantId);
  for (let i = 0; i < links - before; i++) {
    const role = await platform.call('POST', '/api/v1/roles', {
      token,
      body: { code: `r${i}`, name: `r${i}`, permissions: [] },
    });
    expect(role.status).toBe(200);
  }
  expect(await headSeq(tenantId)).toBe(links);
  return { tenantId, token };
}

async function headSeq(tenantId: number): Promise<number> {
  const head = await db()
    .selectFrom('audit_chain_heads')
    .select('seq')
    .where('tenant_id', '=', tenantId)
    .executeTakeFirst();
  return head ? Number(head.seq) : 0;
}

const verifyHttp = async (token: string) =>
  (await platform.call('GET', '/api/v1/logs/audit/verify', { token })).body.data;

const checkpoint = (file?: string) =>
  writeCheckpoints({
    db: db(),
    key: chain().checkpointKey,
    file,
    logger: createLogger('silent'),
    intervalMs: 60_000,
  });

const verifyWith = (tenantId: number, extra: { file?: string; pageRows?: number } = {}) =>
  verifyChain(
    {
      db: db(),
      linkKey: chain().linkKey,
      checkpointKey: chain().checkpointKey,
      checkpointFile: extra.file,
      pageRows: extra.pageRows,
    },
    tenantId,
  );

/** What a superuser can do without the key: recompute every link (unkeyed) and the head. */
async function relinkWithoutKey(tenantId: number, legacyUntil?: number) {
  const rows = await db()
    .selectFrom('audit_business_logs')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .orderBy('seq')
    .execute();
  let prev = GENESIS_HASH;
  for (const row of rows) {
    const content = linkContent({
      ...row,
      seq: Number(row.seq),
      created_at: row.created_at.toISOString(),
    });
    const hash = linkHash(prev, content, null);
    await db()
      .updateTable('audit_business_logs')
      .set({ prev_hash: prev, hash })
      .where('id', '=', row.id)
      .execute();
    prev = hash;
  }
  await db()
    .updateTable('audit_chain_heads')
    .set({
      seq: rows.length,
      hash: prev,
      ...(legacyUntil !== undefined ? { legacy_until: legacyUntil } : {}),
    })
    .where('tenant_id', '=', tenantId)
    .execute();
}

describe('audit chain tampering (RELIABILITY row 15)', () => {
  it('an intact chain verifies, also when read in pages smaller than the chain', async () => {
    const { tenantId, token } = await tenantWithChain(5);
    expect(await verifyHttp(token)).toEqual({ ok: true, checked: 5, first_broken: null });
    expect(await verifyWith(tenantId, { pageRows: 2 })).toEqual({
      ok: true,
      checked: 5,
      first_broken: null,
    });
  });

  it('UPDATE of one row\u2019s before JSON: the first broken seq is that row', async () => {
    const { tenantId, token } = await tenantWithChain(5);
    await sql`UPDATE audit_business_logs SET before = '{"forged":true}'::jsonb
      WHERE tenant_id = ${tenantId} AND seq = 3`.execute(db());
    const verdict = await verifyHttp(token);
    expect(verdict).toMatchObject({ ok: false, checked: 2 });
    expect(verdict.first_broken).toMatchObject({
      seq: 3,
      reason: expect.stringMatching(/changed/),
    });
    // Found across page boundaries too.
    expect((await verifyWith(tenantId, { pageRows: 2 })).first_broken?.seq).toBe(3);
  });

  it('an edit with every link recomputed without the key is still caught (no link passes the key)', async () => {
    const { tenantId, token } = await tenantWithChain(4);
    await sql`UPDATE audit_business_logs SET summary = 'nothing happened'
      WHERE tenant_id = ${tenantId} AND seq = 2`.execute(db());
    await relinkWithoutKey(tenantId);
    expect((await verifyHttp(token)).first_broken).toMatchObject({
      seq: 1,
      reason: expect.stringMatching(/unkeyed/),
    });
  });

  it('DELETE of a middle row: the first broken seq is the one after the gap', async () => {
    const { tenantId, token } = await tenantWithChain(5);
    await sql`DELETE FROM audit_business_logs WHERE tenant_id = ${tenantId} AND seq = 3`.execute(
      db(),
    );
    expect((await verifyHttp(token)).first_broken).toMatchObject({
      seq: 4,
      reason: expect.stringMatching(/expected link 3: rows are missing/),
    });
  });

  it('reordered seq: caught at the first moved row', async () => {
    const { tenantId, token } = await tenantWithChain(5);
    await sql`UPDATE audit_business_logs SET seq = -seq WHERE tenant_id = ${tenantId} AND seq IN (2, 3)`.execute(
      db(),
    );
    await sql`UPDATE audit_business_logs SET seq = CASE seq WHEN -2 THEN 3 ELSE 2 END
      WHERE tenant_id = ${tenantId} AND seq IN (-2, -3)`.execute(db());
    expect((await verifyHttp(token)).first_broken).toMatchObject({ seq: 2 });
  });

  it('DELETE of the last 3 rows with the head rewritten: caught against the signed checkpoint', async () => {
    const { tenantId, token } = await tenantWithChain(6);
    await checkpoint();
    const third = await db()
      .selectFrom('audit_business_logs')
      .select('hash')
      .where('tenant_id', '=', tenantId)
      .where('seq', '=', 3)
      .executeTakeFirstOrThrow();
    await sql`DELETE FROM audit_business_logs WHERE tenant_id = ${tenantId} AND seq > 3`.execute(
      db(),
    );
    await sql`UPDATE audit_chain_heads SET seq = 3, hash = ${third.hash} WHERE tenant_id = ${tenantId}`.execute(
      db(),
    );
    const verdict = await verifyHttp(token);
    expect(verdict).toMatchObject({ ok: false, checked: 3 });
    expect(verdict.first_broken).toMatchObject({
      seq: 4,
      id: null,
      reason: expect.stringMatching(/signed checkpoint .* says 6 links: rows after 3 were removed/),
    });
    // The rolled-back head is not signed by the next round either.
    await checkpoint();
    expect((await verifyHttp(token)).first_broken).toMatchObject({ seq: 4 });
  });

  it('DELETE of the last rows, then new writes past the checkpoint: still caught', async () => {
    const { tenantId, token } = await tenantWithChain(4);
    await checkpoint();
    const second = await db()
      .selectFrom('audit_business_logs')
      .select('hash')
      .where('tenant_id', '=', tenantId)
      .where('seq', '=', 2)
      .executeTakeFirstOrThrow();
    await sql`DELETE FROM audit_business_logs WHERE tenant_id = ${tenantId} AND seq > 2`.execute(
      db(),
    );
    await sql`UPDATE audit_chain_heads SET seq = 2, hash = ${second.hash} WHERE tenant_id = ${tenantId}`.execute(
      db(),
    );
    // The application writes on: seq 3..5 are new rows, the chain is longer than the checkpoint.
    for (const code of ['n1', 'n2', 'n3']) {
      const res = await platform.call('POST', '/api/v1/roles', {
        token,
        body: { code, name: code, permissions: [] },
      });
      expect(res.status).toBe(200);
    }
    await checkpoint();
    const signed = await db()
      .selectFrom('audit_chain_checkpoints')
      .select('seq')
      .where('tenant_id', '=', tenantId)
      .execute();
    expect(signed.map((c) => Number(c.seq))).toEqual([4]); // the diverged head is not signed
    expect((await verifyHttp(token)).first_broken).toMatchObject({
      seq: 4,
      reason: expect.stringMatching(/differs from the signed checkpoint/),
    });
  });

  it('DELETE of the head with every row: caught against the signed checkpoint', async () => {
    const { tenantId, token } = await tenantWithChain(3);
    await checkpoint();
    await sql`DELETE FROM audit_business_logs WHERE tenant_id = ${tenantId}`.execute(db());
    await sql`DELETE FROM audit_chain_heads WHERE tenant_id = ${tenantId}`.execute(db());
    expect(await verifyHttp(token)).toMatchObject({
      ok: false,
      checked: 0,
      first_broken: { seq: 1, reason: expect.stringMatching(/says 3 links/) },
    });
  });

  it('with the checkpoint rows deleted too, the append-only file still catches it', async () => {
    const file = join(dir, `${uniq('cp')}.jsonl`);
    const { tenantId } = await tenantWithChain(4);
    await checkpoint(file);
    await sql`DELETE FROM audit_business_logs WHERE tenant_id = ${tenantId} AND seq > 1`.execute(
      db(),
    );
    await sql`DELETE FROM audit_chain_checkpoints WHERE tenant_id = ${tenantId}`.execute(db());
    const first = await db()
      .selectFrom('audit_business_logs')
      .select('hash')
      .where('tenant_id', '=', tenantId)
      .executeTakeFirstOrThrow();
    await sql`UPDATE audit_chain_heads SET seq = 1, hash = ${first.hash} WHERE tenant_id = ${tenantId}`.execute(
      db(),
    );
    expect(await verifyWith(tenantId)).toEqual({ ok: true, checked: 1, first_broken: null });
    expect((await verifyWith(tenantId, { file })).first_broken).toMatchObject({
      seq: 2,
      reason: expect.stringMatching(/says 4 links/),
    });
  });

  it('a forged checkpoint (no key) is reported', async () => {
    const { tenantId, token } = await tenantWithChain(2);
    await sql`INSERT INTO audit_chain_checkpoints (tenant_id, seq, hash, legacy_until, created_at, signature)
      VALUES (${tenantId}, 1, 'x', 0, now(), ${'a'.repeat(64)})`.execute(db());
    expect((await verifyHttp(token)).first_broken).toMatchObject({
      reason: expect.stringMatching(/invalid signature/),
    });
  });

  it('rewriting the keyed links as unkeyed ones, with the checkpoints deleted and the file off, is caught', async () => {
    const { tenantId, token } = await tenantWithChain(4);
    await checkpoint(); // the table only: no file
    // A superuser without the key: edits a row, relinks the whole chain unkeyed, moves the
    // boundary over it and deletes the checkpoints that said otherwise.
    await sql`UPDATE audit_business_logs SET summary = 'nothing happened'
      WHERE tenant_id = ${tenantId} AND seq = 2`.execute(db());
    await relinkWithoutKey(tenantId, 4);
    await sql`DELETE FROM audit_chain_checkpoints WHERE tenant_id = ${tenantId}`.execute(db());
    const expected = {
      ok: false,
      checked: 0,
      first_broken: { seq: 1, reason: expect.stringMatching(/unkeyed.*no signed checkpoint/) },
    };
    expect(await verifyHttp(token)).toMatchObject(expected);
    // The next round does not sign the boundary the head now claims.
    await checkpoint();
    const signed = await db()
      .selectFrom('audit_chain_checkpoints')
      .select('legacy_until')
      .where('tenant_id', '=', tenantId)
      .execute();
    expect(signed).toEqual([]);
    expect(await verifyHttp(token)).toMatchObject(expected);
  });

  it('a boundary planted in a forged checkpoint row is not carried into a signed one', async () => {
    const { tenantId, token } = await tenantWithChain(3);
    await relinkWithoutKey(tenantId, 3);
    await sql`DELETE FROM audit_chain_checkpoints WHERE tenant_id = ${tenantId}`.execute(db());
    const head = await db()
      .selectFrom('audit_chain_heads')
      .select('hash')
      .where('tenant_id', '=', tenantId)
      .executeTakeFirstOrThrow();
    await sql`INSERT INTO audit_chain_checkpoints (tenant_id, seq, hash, legacy_until, created_at, signature)
      VALUES (${tenantId}, 3, ${head.hash}, 3, now(), ${'a'.repeat(64)})`.execute(db());
    await platform.call('POST', '/api/v1/roles', {
      token,
      body: { code: 'later', name: 'later', permissions: [] },
    });
    await checkpoint();
    // The forged row removed again: nothing signed the boundary it claimed.
    await sql`DELETE FROM audit_chain_checkpoints WHERE tenant_id = ${tenantId} AND signature = ${'a'.repeat(64)}`.execute(
      db(),
    );
    expect(await verifyHttp(token)).toMatchObject({ ok: false, first_broken: { seq: 1 } });
  });

  it('a boundary moved in the head only is not signed by the next round', async () => {
    const { tenantId, token } = await tenantWithChain(3);
    await checkpoint();
    await sql`UPDATE audit_chain_heads SET legacy_until = 3 WHERE tenant_id = ${tenantId}`.execute(
      db(),
    );
    await platform.call('POST', '/api/v1/roles', {
      token,
      body: { code: 'later', name: 'later', permissions: [] },
    });
    await checkpoint();
    const signed = await db()
      .selectFrom('audit_chain_checkpoints')
      .select(['seq', 'legacy_until'])
      .where('tenant_id', '=', tenantId)
      .execute();
    expect(signed.map((c) => [Number(c.seq), Number(c.legacy_until)])).toEqual([[3, 0]]);
  });

  it('chains written before the key (migration 0011) verify as legacy links up to the signed boundary', async () => {
    const { tenantId, token } = await tenantWithChain(3);
    // What 0011 leaves behind: unkeyed links, legacy_until = the head's seq.
    await relinkWithoutKey(tenantId, 3);
    // Not covered by a signed checkpoint: the boundary in the head row alone is not believed.
    expect((await verifyHttp(token)).first_broken).toMatchObject({ seq: 1 });
    // The boundary as the releases right after 0011 signed it in a tenant's first checkpoint.
    const head = await db()
      .selectFrom('audit_chain_heads')
      .select('hash')
      .where('tenant_id', '=', tenantId)
      .executeTakeFirstOrThrow();
    const sealed = signCheckpoint(chain().checkpointKey, {
      tenant_id: tenantId,
      seq: 3,
      hash: head.hash,
      legacy_until: 3,
      created_at: new Date().toISOString(),
    });
    await db()
      .insertInto('audit_chain_checkpoints')
      .values({ ...sealed, created_at: new Date(sealed.created_at) })
      .execute();
    expect(await verifyHttp(token)).toEqual({ ok: true, checked: 3, first_broken: null });
    await platform.call('POST', '/api/v1/roles', {
      token,
      body: { code: 'after', name: 'after', permissions: [] },
    });
    await checkpoint(); // carries the boundary on
    expect(await verifyHttp(token)).toEqual({ ok: true, checked: 4, first_broken: null });
    // Moving the boundary to pass an unkeyed rewrite off as legacy does not survive the seal.
    await sql`UPDATE audit_business_logs SET summary = 'rewritten' WHERE tenant_id = ${tenantId} AND seq = 4`.execute(
      db(),
    );
    await relinkWithoutKey(tenantId, 4);
    expect((await verifyHttp(token)).first_broken).toMatchObject({ seq: 4 });
  });
});
