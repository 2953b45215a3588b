import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, uniq, type TestPlatform } from '../helpers/platform.js';
import { onRealServers } from '../helpers/real-servers.js';
import { eventually } from './system-fixtures.js';

// Two replicas of the whole platform on one PostgreSQL, Redis and NATS: a text changed through
// one shows in the other's errors within its refresh interval (nothing but the table is shared).
// Real servers only: embedded replicas share no database.
describe.runIf(onRealServers)('error texts across replicas', () => {
  let first: TestPlatform;
  let second: TestPlatform;

  beforeAll(async () => {
    first = await startTestPlatform({ ERROR_TEXT_REFRESH_INTERVAL: '1s' });
    const shared = first.settings;
    second = await startTestPlatform({
      ERROR_TEXT_REFRESH_INTERVAL: '1s',
      DATABASE_URL: shared.database.url!,
      REDIS_KEY_PREFIX: shared.redis.keyPrefix,
      NATS_STREAM: shared.nats.stream,
      NATS_SUBJECT_PREFIX: shared.nats.subjectPrefix,
    });
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  it('shows a text changed on one replica in the other replica\u2019s errors', async () => {
    const text = uniq('Not on this replica');
    const put = await first.call('PUT', '/api/v1/system/error-texts/40400', {
      token: await first.adminToken(),
      body: { message: text },
    });
    expect(put.status).toBe(200);
    const token = await second.adminToken();
    const missing = () => second.call('GET', '/api/v1/departments/987654321', { token });
    expect(await eventually(async () => (await missing()).body.message === text, 5000)).toBe(true);
    await first.call('DELETE', '/api/v1/system/error-texts/40400', {
      token: await first.adminToken(),
    });
    expect(await eventually(async () => (await missing()).body.message !== text, 5000)).toBe(true);
  });
});
