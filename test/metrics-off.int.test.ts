import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from './helpers/platform.js';

let platform: TestPlatform;

beforeAll(async () => {
  platform = await startTestPlatform({ METRICS_ENABLED: 'false' });
});
afterAll(() => platform?.close());

describe('METRICS_ENABLED=false', () => {
  it('removes /metrics from every service and starts no metrics listener', async () => {
    for (const base of Object.values(platform.serviceUrls)) {
      const res = await fetch(`${base}/metrics`);
      expect(res.status).toBe(404);
    }
    expect(platform.metricsUrl).toBeUndefined();
    expect((await platform.call('GET', '/api/v1/health/ready')).status).toBe(200);
  });
});
