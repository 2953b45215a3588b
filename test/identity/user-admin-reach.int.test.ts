import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from '../helpers/platform.js';
import { smtpSettings, startSmtpSink, waitForMail, type SmtpSink } from '../helpers/smtp-sink.js';
import { createRole, createUser, dataOf, PASSWORD, signedInUserWith } from './identity-fixtures.js';

// A user administrator reaches only users whose permissions they hold themselves (the rule
// grants follow), and setting someone else's password or e-mail takes its own code.

let sink: SmtpSink;
let platform: TestPlatform;
let admin: string;

beforeAll(async () => {
  sink = await startSmtpSink();
  platform = await startTestPlatform(smtpSettings(sink));
  admin = await platform.adminToken();
}, 60_000);
afterAll(async () => {
  await platform?.close();
  await sink?.close();
});

const USER_ADMIN = ['system:user:list', 'system:user:create', 'system:user:update'];
const NEW_PASSWORD = 'Taken-Over-Account-77';

/** A user holding `*` (not a platform administrator), with an e-mail address, signed in. */
async function superUser() {
  const star = await createRole(platform, admin, ['*']);
  const email = `star-${Date.now()}-${Math.random().toString(36).slice(2)}@mail.example.test`;
  const user = await createUser(platform, admin, { role_ids: [star.id], email });
  const session = await platform.login(user.username, PASSWORD);
  return { ...user, session };
}

const sessionIdOf = (accessToken: string) => Number(decodeJwt(accessToken).sid);

describe('a user administrator and a stronger user', () => {
  it('cannot set the password of a user holding more, even with the reset code', async () => {
    const lesser = await signedInUserWith(platform, admin, [
      ...USER_ADMIN,
      'system:user:reset-password',
    ]);
    const strong = await superUser();
    const res = await platform.call('PUT', `/api/v1/users/${strong.id}`, {
      token: lesser.token,
      body: { password: NEW_PASSWORD },
    });
    expect([res.status, res.body.code]).toEqual([403, 40301]);
    // Nothing changed: the stronger user still signs in with the old password, not the new one.
    const refused = await platform.call('POST', '/api/v1/login', {
      body: { username: strong.username, password: NEW_PASSWORD },
    });
    expect(refused.status).toBe(401);
    const me = await platform.call('GET', '/api/v1/me', { token: strong.session.access_token });
    expect(me.status).toBe(200);
  });

  it('cannot change the e-mail, disable or delete a user holding more', async () => {
    const lesser = await signedInUserWith(platform, admin, [
      ...USER_ADMIN,
      'system:user:delete',
      'system:user:reset-password',
    ]);
    const strong = await superUser();
    for (const body of [
      { email: 'attacker@mail.example.test' },
      { status: 'disabled' },
      { nickname: 'renamed' },
    ]) {
      const res = await platform.call('PUT', `/api/v1/users/${strong.id}`, {
        token: lesser.token,
        body,
      });
      expect([JSON.stringify(body), res.status, res.body.code]).toEqual([
        JSON.stringify(body),
        403,
        40301,
      ]);
    }
    const removed = await platform.call('DELETE', `/api/v1/users/${strong.id}`, {
      token: lesser.token,
    });
    expect([removed.status, removed.body.code]).toEqual([403, 40301]);
    const after = dataOf(
      await platform.call('GET', `/api/v1/users/${strong.id}`, { token: admin }),
    );
    expect(after).toMatchObject({ email: strong.email, status: 'active' });
  });

  it('manages a user whose permissions it holds', async () => {
    const lesser = await signedInUserWith(platform, admin, [
      ...USER_ADMIN,
      'system:user:reset-password',
    ]);
    const weakRole = await createRole(platform, admin, ['system:user:list']);
    const weak = await createUser(platform, admin, { role_ids: [weakRole.id] });
    const res = await platform.call('PUT', `/api/v1/users/${weak.id}`, {
      token: lesser.token,
      body: { password: NEW_PASSWORD, nickname: 'reset by a user admin' },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.must_change_password).toBe(true);
  });
});

describe('setting another user’s password or e-mail', () => {
  it('needs system:user:reset-password besides system:user:update', async () => {
    const lesser = await signedInUserWith(platform, admin, USER_ADMIN);
    const weak = await createUser(platform, admin, { email: 'weak-one@mail.example.test' });
    for (const body of [{ password: NEW_PASSWORD }, { email: 'other@mail.example.test' }]) {
      const res = await platform.call('PUT', `/api/v1/users/${weak.id}`, {
        token: lesser.token,
        body,
      });
      expect([res.status, res.body.code, res.body.message]).toEqual([
        403,
        40300,
        'permission system:user:reset-password required',
      ]);
    }
    // The rest of the record stays within system:user:update.
    const renamed = await platform.call('PUT', `/api/v1/users/${weak.id}`, {
      token: lesser.token,
      body: { nickname: 'Weak One', email: 'weak-one@mail.example.test' },
    });
    expect(renamed.status).toBe(200);
  });

  it('records an e-mail change with before and after, and tells the old address', async () => {
    const oldAddress = 'before-change@mail.example.test';
    const user = await createUser(platform, admin, { email: oldAddress });
    const seen = sink.inbox.length;
    const res = await platform.call('PUT', `/api/v1/users/${user.id}`, {
      token: admin,
      body: { email: 'after-change@mail.example.test' },
    });
    expect(res.status).toBe(200);
    const audit = dataOf(
      await platform.call(
        'GET',
        `/api/v1/logs/audit?target_type=user&target_id=${user.id}&action=update`,
        { token: admin },
      ),
    );
    expect(audit.list).toHaveLength(1);
    expect(audit.list[0].before.email).toBe(oldAddress);
    expect(audit.list[0].after.email).toBe('after-change@mail.example.test');
    const mail = await waitForMail(sink, oldAddress, seen);
    expect(mail.raw).toContain(user.username);
    expect(mail.raw).toContain('after-change@mail.example.test');
  });
});

describe('the sessions of a stronger user', () => {
  it('are not listed to a user administrator holding less, and cannot be ended (404)', async () => {
    const lesser = await signedInUserWith(platform, admin, USER_ADMIN);
    const strong = await superUser();
    const listed = await platform.call('GET', `/api/v1/sessions?user_id=${strong.id}`, {
      token: lesser.token,
    });
    expect(listed.status).toBe(200);
    expect(listed.body.data).toEqual([]);
    const ended = await platform.call(
      'DELETE',
      `/api/v1/sessions/${sessionIdOf(strong.session.access_token)}`,
      { token: lesser.token },
    );
    expect([ended.status, ended.body.code]).toEqual([404, 40400]);
    const me = await platform.call('GET', '/api/v1/me', { token: strong.session.access_token });
    expect(me.status).toBe(200);
  });

  it('nor those of the platform administrator to a tenant admin holding `*`', async () => {
    const star = await signedInUserWith(platform, admin, ['*']);
    const adminSession = await platform.login('admin', 'admin123');
    const listed = await platform.call('GET', '/api/v1/sessions?user_id=1', { token: star.token });
    expect(listed.body.data).toEqual([]);
    const ended = await platform.call(
      'DELETE',
      `/api/v1/sessions/${sessionIdOf(adminSession.access_token)}`,
      { token: star.token },
    );
    expect(ended.status).toBe(404);
  });

  it('of a user within the administrator’s permissions are listed and can be ended', async () => {
    const lesser = await signedInUserWith(platform, admin, USER_ADMIN);
    const weakRole = await createRole(platform, admin, ['system:user:list']);
    const weak = await createUser(platform, admin, { role_ids: [weakRole.id] });
    const session = await platform.login(weak.username, PASSWORD);
    const listed = dataOf(
      await platform.call('GET', `/api/v1/sessions?user_id=${weak.id}`, { token: lesser.token }),
    );
    expect(listed.map((s: { id: number }) => s.id)).toContain(sessionIdOf(session.access_token));
    const ended = await platform.call(
      'DELETE',
      `/api/v1/sessions/${sessionIdOf(session.access_token)}`,
      { token: lesser.token },
    );
    expect(ended.status).toBe(200);
    const me = await platform.call('GET', '/api/v1/me', { token: session.access_token });
    expect(me.status).toBe(401);
  });
});
