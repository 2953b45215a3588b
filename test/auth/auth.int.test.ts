import { createHash } from 'node:crypto';
import { decodeJwt, SignJWT, UnsecuredJWT } from 'jose';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { raceIt, raceOnRowLock } from '../helpers/barrier.js';
import {
  startTestPlatform,
  TEST_JWT_SECRET,
  uniq,
  type TestPlatform,
} from '../helpers/platform.js';

let platform: TestPlatform;
const db = () => platform.kernel.database.db;

/** A plain user in the default tenant, created straight through the admin API. */
async function createUser(password = 'Str0ng-Passw0rd!') {
  const username = uniq('user');
  const res = await platform.call('POST', '/api/v1/users', {
    token: await platform.adminToken(),
    body: { username, password, nickname: 'Test user' },
  });
  expect(res.status).toBe(200);
  return { id: res.body.data.id as number, username, password };
}

function hashOf(token: string) {
  return createHash('sha256').update(token).digest('hex');
}

beforeAll(async () => {
  platform = await startTestPlatform();
});
afterAll(() => platform?.close());

describe('login', () => {
  it('returns a bearer access token, an opaque refresh token and the user', async () => {
    const res = await platform.call('POST', '/api/v1/login', {
      body: { username: 'admin', password: 'admin123' },
    });
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(200);
    const data = res.body.data;
    expect(data.token_type).toBe('Bearer');
    expect(data.access_token.split('.')).toHaveLength(3);
    expect(data.refresh_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(data.expires_in).toBe(900);
    expect(data.user).toMatchObject({
      username: 'admin',
      tenant_id: 1,
      permissions: ['*'],
      is_platform_admin: true,
    });
    expect(res.text).not.toMatch(/password_hash|\$argon2/);
  });

  it('answers unknown user and wrong password with one identical error', async () => {
    const user = await createUser();
    const wrong = await platform.call('POST', '/api/v1/login', {
      body: { username: user.username, password: 'nope-nope' },
    });
    const unknown = await platform.call('POST', '/api/v1/login', {
      body: { username: uniq('ghost'), password: 'nope-nope' },
    });
    const badTenant = await platform.call('POST', '/api/v1/login', {
      body: { username: user.username, password: user.password, tenant_code: uniq('nowhere') },
    });
    for (const res of [wrong, unknown, badTenant]) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ code: 40103, message: wrong.body.message, data: null });
    }
  });

  it('stores only the SHA-256 of refresh tokens', async () => {
    const session = await platform.login('admin', 'admin123');
    const stored = await sql<{
      token_hash: string;
    }>`SELECT token_hash FROM auth_refresh_tokens`.execute(db());
    const hashes = stored.rows.map((r) => r.token_hash);
    expect(hashes).toContain(hashOf(session.refresh_token));
    expect(hashes).not.toContain(session.refresh_token);
  });

  it('validates the body and lists every problem', async () => {
    const res = await platform.call('POST', '/api/v1/login', { body: { username: 42 } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(40001);
    const fields = res.body.data.fields.map((f: { field: string }) => f.field).sort();
    expect(fields).toEqual(['password', 'username']);
  });
});

describe('access tokens at the gateway', () => {
  it('lets a valid token through to /me', async () => {
    const res = await platform.call('GET', '/api/v1/me', { token: await platform.adminToken() });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: 1, username: 'admin', roles: ['super_admin'] });
  });

  it('refuses a request without a token', async () => {
    const res = await platform.call('GET', '/api/v1/me');
    expect(res.status).toBe(401);
    expect(res.body.code).toBe(40100);
  });

  it('answers 40101 for an expired token', async () => {
    const iat = Math.floor(Date.now() / 1000) - 3600;
    const expired = await new SignJWT({ tid: 1, sid: 1 })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('1')
      .setIssuer('approva')
      .setAudience('approva-api')
      .setIssuedAt(iat)
      .setExpirationTime(iat + 60)
      .sign(new TextEncoder().encode(TEST_JWT_SECRET));
    const res = await platform.call('GET', '/api/v1/me', { token: expired });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe(40101);
  });

  it('refuses a forged token and an alg:none token with one error shape', async () => {
    const claims = { tid: 1, sid: 1 };
    const forged = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('1')
      .setIssuer('approva')
      .setAudience('approva-api')
      .setIssuedAt()
      .setExpirationTime('10m')
      .sign(new TextEncoder().encode('attacker-guess-0123456789abcdef01234567'));
    const none = new UnsecuredJWT(claims)
      .setSubject('1')
      .setIssuer('approva')
      .setAudience('approva-api')
      .setIssuedAt()
      .setExpirationTime('10m')
      .encode();
    for (const token of [forged, none, 'garbage']) {
      const res = await platform.call('GET', '/api/v1/me', { token });
      expect(res.status).toBe(401);
      expect(res.body.code).toBe(40100);
    }
  });

  /** The claims of a live session of the admin's: only a changed claim can get them refused. */
  async function liveClaims() {
    return decodeJwt((await platform.login('admin', 'admin123')).access_token);
  }

  /** Claims signed with the platform's key, as the platform signs its own tokens. */
  const signed = (claims: Record<string, unknown>) =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .sign(new TextEncoder().encode(TEST_JWT_SECRET));

  /** Waits for the start of the next second: `now` then stays this second for ~1 s. */
  async function startOfSecond() {
    await new Promise((r) => setTimeout(r, 1000 - (Date.now() % 1000)));
    return Math.floor(Date.now() / 1000);
  }

  it('refuses a token not yet valid, for another audience or from another issuer (40100)', async () => {
    const now = Math.floor(Date.now() / 1000);
    const claims = await liveClaims();
    const control = await platform.call('GET', '/api/v1/me', { token: await signed(claims) });
    expect(control.status).toBe(200);
    for (const [name, changes] of [
      ['nbf in the future', { nbf: now + 3600 }],
      ['another audience', { aud: 'approva-other' }],
      ['no audience', { aud: undefined }],
      ['another issuer', { iss: 'approva-other' }],
      [
        'the OAuth issuer and audience',
        { iss: `${platform.url}/api/v1/oauth2`, aud: 'urn:approva:api' },
      ],
    ] as const) {
      const token = await signed({ ...claims, ...changes });
      const res = await platform.call('GET', '/api/v1/me', { token });
      expect({ name, status: res.status, body: res.body }).toEqual({
        name,
        status: 401,
        body: { code: 40100, message: expect.any(String), data: null },
      });
    }
  });

  it('accepts exp and nbf within the 5 s clock skew and refuses them just past it', async () => {
    // Tokens are minted at the start of a second, so the verifier's clock (whole seconds) reads
    // `now` or at most `now + 1` when it checks them.
    const cases = [
      ['exp 3 s ago: inside the skew', { exp: -3 }, 200, 200],
      ['exp 5 s ago: at the bound, refused', { exp: -5 }, 401, 40101],
      ['exp 6 s ago', { exp: -6 }, 401, 40101],
      ['nbf 5 s ahead: at the bound, accepted', { nbf: 5 }, 200, 200],
      ['nbf 7 s ahead: past it', { nbf: 7 }, 401, 40100],
    ] as const;
    for (const [name, offsets, status, code] of cases) {
      const claims = await liveClaims();
      const now = await startOfSecond();
      const changes = Object.fromEntries(
        Object.entries(offsets).map(([claim, offset]) => [claim, now + offset]),
      );
      const shifted = await signed({ ...claims, ...changes });
      const res = await platform.call('GET', '/api/v1/me', { token: shifted });
      expect({ name, status: res.status, code: res.body.code }).toEqual({ name, status, code });
    }
  });

  it('refuses a well-signed token whose session was revoked', async () => {
    const session = await platform.login('admin', 'admin123');
    const out = await platform.call('POST', '/api/v1/logout', {
      token: session.access_token,
      body: {},
    });
    expect(out.status).toBe(200);
    const res = await platform.call('GET', '/api/v1/me', { token: session.access_token });
    expect(res.status).toBe(401);
    const refresh = await platform.call('POST', '/api/v1/refresh', {
      body: { refresh_token: session.refresh_token },
    });
    expect(refresh.body.code).toBe(40102);
  });
});

describe('forward-auth verify route (auth service port)', () => {
  const verify = (headers: Record<string, string>) =>
    fetch(`${platform.serviceUrls.auth}/internal/auth/verify`, { headers });

  it('answers the principal as JSON and as X-Auth-* headers for an edge (nginx auth_request)', async () => {
    const user = await createUser();
    const session = await platform.login(user.username, user.password);
    const res = await verify({
      authorization: `Bearer ${session.access_token}`,
      'x-forwarded-method': 'GET',
      'x-forwarded-uri': '/internal-app/page?x=1',
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as any;
    expect(body.data).toMatchObject({ userId: user.id, tenantId: 1, username: user.username });
    expect(res.headers.get('x-auth-user-id')).toBe(String(user.id));
    expect(res.headers.get('x-auth-tenant-id')).toBe('1');
    expect(res.headers.get('x-auth-username')).toBe(encodeURIComponent(user.username));
    expect(res.headers.get('x-auth-roles')).toBe(body.data.roles.join(','));
    expect(res.headers.get('x-auth-platform-admin')).toBe('false');

    const admin = await verify({ authorization: `Bearer ${await platform.adminToken()}` });
    expect(admin.status).toBe(200);
    expect(admin.headers.get('x-auth-user-id')).toBe('1');
    expect(admin.headers.get('x-auth-username')).toBe('admin');
    expect(admin.headers.get('x-auth-roles')).toBe('super_admin');
    expect(admin.headers.get('x-auth-platform-admin')).toBe('true');
  });

  it('answers 401 in the envelope, without identity headers, for no or a bad token', async () => {
    for (const headers of [{}, { authorization: 'Bearer garbage' }] as Record<string, string>[]) {
      const res = await verify(headers);
      expect(res.status).toBe(401);
      expect(((await res.json()) as any).code).toBe(40100);
      expect(res.headers.get('x-auth-user-id')).toBeNull();
    }
  });
});

describe('refresh tokens', () => {
  it('rotates on every use: the new token works, the old one is refused', async () => {
    const first = await platform.login('admin', 'admin123');
    const second = await platform.call('POST', '/api/v1/refresh', {
      body: { refresh_token: first.refresh_token },
    });
    expect(second.status).toBe(200);
    expect(second.body.data.refresh_token).not.toBe(first.refresh_token);
    const me = await platform.call('GET', '/api/v1/me', { token: second.body.data.access_token });
    expect(me.status).toBe(200);
    const replay = await platform.call('POST', '/api/v1/refresh', {
      body: { refresh_token: first.refresh_token },
    });
    expect(replay.status).toBe(401);
    expect(replay.body.code).toBe(40102);
    // Within 30 s of consumption a replay does not revoke the winner's session.
    const third = await platform.call('POST', '/api/v1/refresh', {
      body: { refresh_token: second.body.data.refresh_token },
    });
    expect(third.status).toBe(200);
  });

  raceIt(
    'lets exactly one of 20 concurrent refreshes with one token win, never a 5xx',
    async () => {
      const session = await platform.login('admin', 'admin123');
      const results = await raceOnRowLock(
        platform.settings.database.url,
        'SELECT id FROM auth_refresh_tokens WHERE token_hash = $1 FOR UPDATE',
        [hashOf(session.refresh_token)],
        () =>
          Promise.all(
            Array.from({ length: 20 }, () =>
              platform.call('POST', '/api/v1/refresh', {
                body: { refresh_token: session.refresh_token },
              }),
            ),
          ),
        5,
      );
      const statuses = results.map((r) => r.status);
      expect(statuses.filter((s) => s === 200)).toHaveLength(1);
      expect(statuses.filter((s) => s === 401)).toHaveLength(19);
      for (const r of results.filter((x) => x.status === 401))
        expect(r.body).toMatchObject({ code: 40102, data: null });
      const winner = results.find((r) => r.status === 200)!;
      // The parent row is marked consumed (once, by the winner), and its one child is the
      // winner's token, not yet consumed.
      const rows = await sql<{ consumed: boolean; children: string[] }>`
      SELECT p.consumed_at IS NOT NULL AS consumed,
             coalesce(array_agg(c.token_hash) FILTER (WHERE c.consumed_at IS NULL), '{}') AS children
      FROM auth_refresh_tokens p LEFT JOIN auth_refresh_tokens c ON c.parent_id = p.id
      WHERE p.token_hash = ${hashOf(session.refresh_token)}
      GROUP BY p.id`.execute(db());
      expect(rows.rows).toEqual([
        { consumed: true, children: [hashOf(winner.body.data.refresh_token)] },
      ]);
      const next = await platform.call('POST', '/api/v1/refresh', {
        body: { refresh_token: winner.body.data.refresh_token },
      });
      expect(next.status).toBe(200);
    },
  );

  it('treats a consumed token presented more than 30 s later as theft and revokes the family', async () => {
    const first = await platform.login('admin', 'admin123');
    const second = await platform.call('POST', '/api/v1/refresh', {
      body: { refresh_token: first.refresh_token },
    });
    expect(second.status).toBe(200);
    // Let 31 seconds pass for the consumed token.
    await sql`UPDATE auth_refresh_tokens SET consumed_at = now() - interval '31 seconds'
      WHERE token_hash = ${hashOf(first.refresh_token)}`.execute(db());
    const theft = await platform.call('POST', '/api/v1/refresh', {
      body: { refresh_token: first.refresh_token },
    });
    expect(theft.body.code).toBe(40102);
    const victim = await platform.call('POST', '/api/v1/refresh', {
      body: { refresh_token: second.body.data.refresh_token },
    });
    expect(victim.body.code).toBe(40102);
    const me = await platform.call('GET', '/api/v1/me', { token: second.body.data.access_token });
    expect(me.status).toBe(401);
  });

  it('answers 40101 for an expired refresh token', async () => {
    const session = await platform.login('admin', 'admin123');
    await sql`UPDATE auth_refresh_tokens SET expires_at = now() - interval '1 second'
      WHERE token_hash = ${hashOf(session.refresh_token)}`.execute(db());
    const res = await platform.call('POST', '/api/v1/refresh', {
      body: { refresh_token: session.refresh_token },
    });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe(40101);
  });

  it('answers 40102 for an unknown refresh token', async () => {
    const res = await platform.call('POST', '/api/v1/refresh', {
      body: { refresh_token: 'x'.repeat(43) },
    });
    expect(res.body.code).toBe(40102);
  });
});

describe('password change', () => {
  it('checks the old password and refuses weak new ones', async () => {
    const user = await createUser();
    const { access_token } = await platform.login(user.username, user.password);
    const wrongOld = await platform.call('POST', '/api/v1/me/password', {
      token: access_token,
      body: { old_password: 'not-it-at-all', new_password: 'An0ther-Str0ng-One' },
    });
    expect(wrongOld.body.code).toBe(40001);
    const weak = await platform.call('POST', '/api/v1/me/password', {
      token: access_token,
      body: { old_password: user.password, new_password: 'password' },
    });
    expect(weak.body.code).toBe(40001);
  });

  it('takes effect at once and signs out the other sessions', async () => {
    const user = await createUser();
    const other = await platform.login(user.username, user.password);
    const current = await platform.login(user.username, user.password);
    const res = await platform.call('POST', '/api/v1/me/password', {
      token: current.access_token,
      body: { old_password: user.password, new_password: 'Brand-New-Passw0rd' },
    });
    expect(res.status).toBe(200);
    expect((await platform.call('GET', '/api/v1/me', { token: other.access_token })).status).toBe(
      401,
    );
    expect((await platform.call('GET', '/api/v1/me', { token: current.access_token })).status).toBe(
      200,
    );
    await platform.login(user.username, 'Brand-New-Passw0rd');
    const old = await platform.call('POST', '/api/v1/login', {
      body: { username: user.username, password: user.password },
    });
    expect(old.body.code).toBe(40103);
  });

  it('blocks everything but /me, password change and logout while a change is required', async () => {
    const role = await platform.call('POST', '/api/v1/roles', {
      token: await platform.adminToken(),
      body: { code: uniq('lister'), name: 'Lister', permissions: ['system:user:list'] },
    });
    expect(role.status).toBe(200);
    const username = uniq('user');
    const password = 'Str0ng-Passw0rd!';
    const created = await platform.call('POST', '/api/v1/users', {
      token: await platform.adminToken(),
      body: { username, password, role_ids: [role.body.data.id] },
    });
    // Created by an administrator: the password must be changed at first sign-in.
    expect(created.body.data.must_change_password).toBe(true);
    const { access_token } = await platform.login(username, password, undefined, {
      keepPasswordChange: true,
    });
    const blocked = await platform.call('GET', '/api/v1/users', { token: access_token });
    expect(blocked.status).toBe(403);
    expect(blocked.body.code).toBe(40302);
    const me = await platform.call('GET', '/api/v1/me', { token: access_token });
    expect(me.body.data.must_change_password).toBe(true);
    const change = await platform.call('POST', '/api/v1/me/password', {
      token: access_token,
      body: { old_password: password, new_password: 'Changed-Passw0rd!' },
    });
    expect(change.status).toBe(200);
    const after = await platform.call('GET', '/api/v1/users', { token: access_token });
    expect(after.status).toBe(200);
    expect(after.body.code).toBe(200);
  });
});
