import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLocalJWKSet, jwtVerify, type JSONWebKeySet } from 'jose';
import { sql } from 'kysely';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pruneExpiredArtifacts } from '../../src/services/auth/oauth2/artifacts.repo.js';
import { KeyCipher, rotateSigningKey } from '../../src/services/auth/oauth2/signing-keys.js';
import type { OAuthTables } from '../../src/services/auth/oauth2/oauth2.tables.js';
import { startTestPlatform, uniq, type TestPlatform } from '../helpers/platform.js';
import { clientConfig, issuerOf, REDIRECT_URI, registerClient } from './oauth2-harness.js';
import { until } from '../helpers/until.js';

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform({ OIDC_KEY_CHECK_INTERVAL: '100ms' });
}, 60_000);
afterAll(async () => {
  await platform?.close();
});

const sha256 = (v: string) => createHash('sha256').update(v).digest('hex');
const db = () => platform.kernel.database.db;

async function auditRows(id: number) {
  const rows = await sql<{ action: string; before: any; after: any; actor_name: string }>`
    SELECT action, before, after, actor_name FROM audit_business_logs
    WHERE target_type = 'oauth_client' AND target_id = ${String(id)} ORDER BY seq`.execute(db());
  return rows.rows;
}

async function jwks(): Promise<JSONWebKeySet> {
  return (await (await fetch(`${issuerOf(platform)}/jwks`)).json()) as JSONWebKeySet;
}

describe('OAuth client management', () => {
  it('is for platform admins only', async () => {
    expect((await platform.call('GET', '/api/v1/oauth2/clients')).status).toBe(401);
    const tenant = uniq('t');
    const created = await platform.call('POST', '/api/v1/tenants', {
      token: await platform.adminToken(),
      body: {
        code: tenant,
        name: tenant,
        admin_username: 'boss',
        admin_password: 'Str0ng-Pass-4-Tests',
      },
    });
    expect(created.status).toBe(200);
    const boss = await platform.login('boss', 'Str0ng-Pass-4-Tests', tenant);
    const res = await platform.call('GET', '/api/v1/oauth2/clients', { token: boss.access_token });
    expect(res.status).toBe(403);
    const post = await platform.call('POST', '/api/v1/oauth2/clients', {
      token: boss.access_token,
      body: { name: 'x', grant_types: ['client_credentials'] },
    });
    expect(post.status).toBe(403);
  });

  it('shows the secret once, stores only its SHA-256, and audits every change', async () => {
    const token = await platform.adminToken();
    const client = await registerClient(platform, {
      redirect_uris: [REDIRECT_URI],
      grant_types: ['authorization_code', 'refresh_token'],
      access_token_format: 'jwt',
      token_rate_per_minute: 30,
    });
    expect(client.client_secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(client).toMatchObject({
      public: false,
      access_token_format: 'jwt',
      token_rate_per_minute: 30,
    });
    const stored = await sql<{ secret_hash: string }>`
      SELECT secret_hash FROM auth_oauth_clients WHERE client_id = ${client.client_id}`.execute(
      db(),
    );
    expect(stored.rows[0]!.secret_hash).toBe(sha256(client.client_secret!));

    const got = await platform.call('GET', `/api/v1/oauth2/clients/${client.client_id}`, { token });
    expect(got.status).toBe(200);
    expect(got.body.data.client_secret).toBeUndefined();
    const list = await platform.call('GET', '/api/v1/oauth2/clients?page_size=100', { token });
    expect(list.text).not.toContain(client.client_secret!);

    const put = await platform.call('PUT', `/api/v1/oauth2/clients/${client.client_id}`, {
      token,
      body: { name: 'renamed', token_rate_per_minute: 0 },
    });
    expect(put.status).toBe(200);
    expect(put.body.data).toMatchObject({ name: 'renamed', token_rate_per_minute: 0 });

    const rotated = await platform.call(
      'POST',
      `/api/v1/oauth2/clients/${client.client_id}/secret`,
      { token },
    );
    expect(rotated.status).toBe(200);
    const newSecret = rotated.body.data.client_secret as string;
    expect(newSecret).not.toBe(client.client_secret);

    const del = await platform.call('DELETE', `/api/v1/oauth2/clients/${client.client_id}`, {
      token,
    });
    expect(del.status).toBe(200);
    expect(
      (await platform.call('GET', `/api/v1/oauth2/clients/${client.client_id}`, { token })).status,
    ).toBe(404);

    const rows = await auditRows(client.id as number);
    expect(rows.map((r) => r.action)).toEqual(['create', 'update', 'update', 'delete']);
    expect(rows[0]!.before).toBeNull();
    expect(rows[0]!.after).toMatchObject({ client_id: client.client_id, name: client.name });
    expect(rows[1]!.after).toMatchObject({ name: 'renamed' });
    expect(rows[3]!.after).toBeNull();
    expect(rows.every((r) => r.actor_name === 'admin')).toBe(true);
    expect(JSON.stringify(rows)).not.toContain(client.client_secret!);
    expect(JSON.stringify(rows)).not.toContain(newSecret);
  });

  it('makes the old secret useless on rotation, and a deleted client’s tokens with it', async () => {
    const token = await platform.adminToken();
    const client = await registerClient(platform, { grant_types: ['client_credentials'] });
    const before = await clientConfig(platform, client);
    const issued = await oidc.clientCredentialsGrant(before, { scope: 'api' });
    const rotated = await platform.call(
      'POST',
      `/api/v1/oauth2/clients/${client.client_id}/secret`,
      { token },
    );
    const failed = await oidc
      .clientCredentialsGrant(before, { scope: 'api' })
      .catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(oidc.WWWAuthenticateChallengeError);
    expect((failed as oidc.WWWAuthenticateChallengeError).status).toBe(401);
    const after = await clientConfig(platform, {
      ...client,
      client_secret: rotated.body.data.client_secret,
    });
    expect((await oidc.tokenIntrospection(after, issued.access_token)).active).toBe(true);

    await platform.call('DELETE', `/api/v1/oauth2/clients/${client.client_id}`, { token });
    const left = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM auth_oauth_artifacts WHERE client_id = ${client.client_id}`.execute(
      db(),
    );
    expect(left.rows[0]!.n).toBe(0);
  });

  it.each([
    [{ public: true, grant_types: ['client_credentials'] }, 'grant_types'],
    [{ grant_types: ['authorization_code'] }, 'redirect_uris'],
    [{ grant_types: ['refresh_token'] }, 'grant_types'],
    [{ grant_types: [] }, 'grant_types'],
    [{ grant_types: ['implicit'] }, 'grant_types'],
    [{ grant_types: ['client_credentials'], access_token_format: 'paseto' }, 'access_token_format'],
    [{ grant_types: ['client_credentials'], token_rate_per_minute: -1 }, 'token_rate_per_minute'],
  ])('refuses %j and changes nothing', async (body, field) => {
    const name = uniq('bad');
    const res = await platform.call('POST', '/api/v1/oauth2/clients', {
      token: await platform.adminToken(),
      body: { name, ...body },
    });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body.data)).toContain(field);
    const rows = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM auth_oauth_clients WHERE name = ${name}`.execute(db());
    expect(rows.rows[0]!.n).toBe(0);
  });
});

describe('signing keys', () => {
  const oauthDb = () => platform.kernel.database.db.withTables<OAuthTables>();
  const cipher = () => new KeyCipher(platform.settings.auth.oidc.keyEncryptionKey);

  it('stores the private key encrypted', async () => {
    const rows = await sql<{ private_jwk_encrypted: string; public_jwk: any }>`
      SELECT private_jwk_encrypted, public_jwk FROM auth_oauth_signing_keys`.execute(db());
    expect(rows.rows.length).toBeGreaterThan(0);
    for (const row of rows.rows) {
      expect(row.private_jwk_encrypted).toMatch(/^v1\./);
      expect(row.private_jwk_encrypted).not.toContain('"d"');
      expect(row.public_jwk.d).toBeUndefined();
    }
  });

  it('signs with a rotated key and keeps the old public key in /jwks for tokens it signed', async () => {
    const client = await registerClient(platform, {
      grant_types: ['client_credentials'],
      access_token_format: 'jwt',
    });
    const config = await clientConfig(platform, client);
    const old = await oidc.clientCredentialsGrant(config, { scope: 'api' });
    const oldKids = (await jwks()).keys.map((k) => k.kid);

    const kid = await rotateSigningKey(oauthDb(), cipher());
    const published = await until(
      'the new key published',
      async () => {
        const set = await jwks();
        return set.keys.some((k) => k.kid === kid) ? set : undefined;
      },
      5000,
    );
    expect(published.keys[0]!.kid).toBe(kid);
    for (const oldKid of oldKids) expect(published.keys.map((k) => k.kid)).toContain(oldKid);

    const fresh = await oidc.clientCredentialsGrant(config, { scope: 'api' });
    const keySet = createLocalJWKSet(published);
    const verifiedOld = await jwtVerify(old.access_token, keySet, { typ: 'at+jwt' });
    const verifiedNew = await jwtVerify(fresh.access_token, keySet, { typ: 'at+jwt' });
    expect(verifiedNew.protectedHeader.kid).toBe(kid);
    expect(verifiedOld.protectedHeader.kid).not.toBe(kid);
  });

  it('refuses to issue (503) when the signing key cannot be decrypted, and makes up no new key', async () => {
    const client = await registerClient(platform, { grant_types: ['client_credentials'] });
    const config = await clientConfig(platform, client);
    // A key stored with another encryption key, as after a wrong OIDC_KEY_ENCRYPTION_KEY.
    const foreign = new KeyCipher('some-other-key-encryption-secret-0123456789');
    await rotateSigningKey(oauthDb(), foreign);
    const keysBefore = await sql<{
      n: number;
    }>`SELECT count(*)::int AS n FROM auth_oauth_signing_keys`.execute(db());
    try {
      const tokenRequest = async () => {
        const res = await fetch(`${issuerOf(platform)}/token`, {
          method: 'POST',
          headers: {
            'content-type': 'application/x-www-form-urlencoded',
            authorization: `Basic ${Buffer.from(`${client.client_id}:${client.client_secret}`).toString('base64')}`,
          },
          body: 'grant_type=client_credentials',
        });
        return { status: res.status, body: (await res.json()) as Record<string, unknown> };
      };
      const refused = await until(
        'the token endpoint refusing',
        async () => {
          const res = await tokenRequest();
          return res.status === 503 ? res : undefined;
        },
        5000,
      );
      expect(refused.body).toMatchObject({ error: 'temporarily_unavailable' });
      expect((await fetch(`${issuerOf(platform)}/jwks`)).status).toBe(503);
      const keysAfter = await sql<{
        n: number;
      }>`SELECT count(*)::int AS n FROM auth_oauth_signing_keys`.execute(db());
      expect(keysAfter.rows[0]!.n).toBe(keysBefore.rows[0]!.n);
    } finally {
      await rotateSigningKey(oauthDb(), cipher());
      await until('the key set back', async () => Array.isArray((await jwks()).keys), 5000);
    }
    expect((await oidc.clientCredentialsGrant(config, { scope: 'api' })).access_token).toBeTruthy();
  });

  it('`keys rotate` on the command line adds a key', () => {
    const dir = mkdtempSync(join(tmpdir(), 'approva-keys-'));
    try {
      const run = () =>
        spawnSync(process.execPath, ['--import', 'tsx', 'src/main.ts', 'keys', 'rotate'], {
          env: { PATH: process.env.PATH ?? '', DATA_DIR: dir, LOG_LEVEL: 'silent' },
          encoding: 'utf8',
          timeout: 60_000,
        });
      const first = run();
      expect(first.status).toBe(0);
      const second = run();
      expect(second.status).toBe(0);
      expect(second.stdout.trim()).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(second.stdout.trim()).not.toBe(first.stdout.trim());
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('stored artefacts', () => {
  it('prunes artefacts a day past their expiry and keeps the rest', async () => {
    const old = uniq('old');
    const recent = uniq('recent');
    await sql`INSERT INTO auth_oauth_artifacts (model, id_hash, payload, expires_at) VALUES
      ('AccessToken', ${old}, '{}'::jsonb, now() - interval '25 hours'),
      ('AccessToken', ${recent}, '{}'::jsonb, now() - interval '1 hour')`.execute(db());
    await pruneExpiredArtifacts(platform.kernel.database.db.withTables<OAuthTables>());
    const left = await sql<{ id_hash: string }>`
      SELECT id_hash FROM auth_oauth_artifacts WHERE id_hash IN (${old}, ${recent})`.execute(db());
    expect(left.rows.map((r) => r.id_hash)).toEqual([recent]);
  });
});
