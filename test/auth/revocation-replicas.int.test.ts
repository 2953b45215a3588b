import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, uniq, type TestPlatform } from '../helpers/platform.js';
import { onRealServers } from '../helpers/real-servers.js';

// Two replicas of the whole platform on one PostgreSQL, Redis and NATS: what an administrator
// does on one ends the user's sessions on the other at once (the user cache is shared in Redis,
// and refresh reads the user past the cache). Real servers only: embedded replicas share nothing.
const PASSWORD = 'Str0ng-Passw0rd!';

describe.runIf(onRealServers)('revocation across replicas', () => {
  let first: TestPlatform;
  let second: TestPlatform;
  let admin: string;

  beforeAll(async () => {
    first = await startTestPlatform();
    const shared = first.settings;
    second = await startTestPlatform({
      DATABASE_URL: shared.database.url!,
      REDIS_KEY_PREFIX: shared.redis.keyPrefix,
      NATS_STREAM: shared.nats.stream,
      NATS_SUBJECT_PREFIX: shared.nats.subjectPrefix,
    });
    admin = await second.adminToken();
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  /** A user signed in on the first replica, whose token that replica has just used. */
  async function signedInOnFirst() {
    const username = uniq('user');
    const created = await second.call('POST', '/api/v1/users', {
      token: admin,
      body: { username, password: PASSWORD },
    });
    expect(created.status).toBe(200);
    const session = await first.login(username, PASSWORD);
    expect((await first.call('GET', '/api/v1/me', { token: session.access_token })).status).toBe(
      200,
    );
    return { id: created.body.data.id as number, ...session };
  }

  async function expectSignedOutOnFirst(session: { access_token: string; refresh_token: string }) {
    const me = await first.call('GET', '/api/v1/me', { token: session.access_token });
    expect(me.status).toBe(401);
    const refresh = await first.call('POST', '/api/v1/refresh', {
      body: { refresh_token: session.refresh_token },
    });
    expect(refresh.status).toBe(401);
    expect(refresh.body.code).toBe(40102);
  }

  it('ends the sessions of a user disabled on the other replica', async () => {
    const user = await signedInOnFirst();
    const disabled = await second.call('PUT', `/api/v1/users/${user.id}`, {
      token: admin,
      body: { status: 'disabled' },
    });
    expect(disabled.status).toBe(200);
    await expectSignedOutOnFirst(user);
  });

  it('ends the sessions of a user whose password was set on the other replica', async () => {
    const user = await signedInOnFirst();
    const reset = await second.call('PUT', `/api/v1/users/${user.id}`, {
      token: admin,
      body: { password: 'An0ther-Str0ng-Pass!' },
    });
    expect(reset.status).toBe(200);
    await expectSignedOutOnFirst(user);
  });
});
