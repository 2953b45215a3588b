import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from './helpers/platform.js';

let busy: Server;
let port: number;
let platform: TestPlatform;
const lines: string[] = [];

beforeAll(async () => {
  // Another copy of the platform, as far as the metrics port is concerned.
  busy = createServer();
  await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
  port = (busy.address() as { port: number }).port;
  platform = await startTestPlatform(
    { METRICS_ENABLED: 'true', METRICS_PORT: String(port), LOG_LEVEL: 'warn' },
    { logs: { write: (line: string) => void lines.push(line) } },
  );
});
afterAll(async () => {
  await platform?.close();
  await new Promise((resolve) => busy.close(resolve));
});

describe('a busy METRICS_PORT', () => {
  it('does not take the platform down: it runs without the metrics listener', async () => {
    expect(platform.metricsUrl).toBeUndefined();
    expect((await platform.call('GET', '/api/v1/health/ready')).status).toBe(200);
    const login = await platform.call('POST', '/api/v1/login', {
      body: { username: 'admin', password: 'admin123' },
    });
    expect(login.status).toBe(200);
  });

  it('says so in a warning that names METRICS_PORT and the port', () => {
    const warnings = lines
      .map((line) => JSON.parse(line) as { level: number | string; msg: string })
      .filter((entry) => entry.msg.includes('METRICS_PORT'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.msg).toContain(`METRICS_PORT ${port}`);
    expect(warnings[0]!.msg).toMatch(/already in use/);
  });
});
