import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

function runCli(args: string[], env: Record<string, string> = {}) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'src/main.ts', ...args], {
    env: { PATH: process.env.PATH ?? '', ...env },
    encoding: 'utf8',
    timeout: 30_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('command line', () => {
  it('prints help', () => {
    const { code, stdout } = runCli(['help']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/approva serve --service <name>/);
    expect(stdout).toMatch(/migrate/);
  });

  it('refuses an unknown command with the help text', () => {
    const { code, stderr } = runCli(['frobnicate']);
    expect(code).toBe(2);
    expect(stderr).toMatch(/unknown command/);
  });

  it('refuses to start in production with a weak JWT secret, naming the setting', () => {
    const { code, stderr } = runCli(['serve'], {
      APP_ENV: 'production',
      JWT_SECRET: 'change-me',
      DATABASE_URL: 'postgres://approva:Vt7q-Lw2x-Rp9m@127.0.0.1:1/approva',
    });
    expect(code).toBe(1);
    expect(stderr).toMatch(/refusing to start/);
    expect(stderr).toMatch(/JWT_SECRET/);
  });

  it('refuses to start in production with a weak database password, naming the setting', () => {
    const { code, stderr } = runCli(['serve'], {
      APP_ENV: 'production',
      JWT_SECRET: 'k8Jq2vN5xR7tW1zB4mC6pL9sD3fG0hY2uE5iO8aQ',
      DATABASE_URL: 'postgres://approva:postgres@127.0.0.1:1/approva',
    });
    expect(code).toBe(1);
    expect(stderr).toMatch(/DB_PASSWORD/);
  });

  it('refuses to listen beyond loopback with the development defaults, naming each', () => {
    const { code, stderr } = runCli(['serve'], { HOST: '0.0.0.0', DATA_DIR: 'memory://' });
    expect(code).toBe(1);
    expect(stderr).toMatch(/refusing to start/);
    expect(stderr).toMatch(
      /JWT_SECRET \(the development value\) is in use while listening on HOST=0\.0\.0\.0/,
    );
    expect(stderr).toMatch(/ADMIN_INITIAL_PASSWORD \(the seeded admin123\)/);
  });

  it('warns at start-up naming each development default in use, and none once set', () => {
    const warnings = (env: Record<string, string>) => {
      // An unreachable database: the warnings come first, then the start fails fast.
      const { code, stdout } = runCli(['migrate'], {
        DATABASE_URL: 'postgres://approva@127.0.0.1:1/approva',
        DB_CONNECT_RETRIES: '0',
        ...env,
      });
      expect(code).toBe(1);
      return stdout
        .split('\n')
        .filter((line) => line.includes('development default in use'))
        .map((line) => JSON.parse(line) as { level: number; setting: string })
        .map(({ level, setting }) => ({ level, setting }));
    };
    expect(warnings({})).toEqual([
      { level: 40, setting: 'JWT_SECRET (the development value)' },
      { level: 40, setting: 'ADMIN_INITIAL_PASSWORD (the seeded admin123)' },
    ]);
    expect(
      warnings({
        JWT_SECRET: 'k8Jq2vN5xR7tW1zB4mC6pL9sD3fG0hY2uE5iO8aQ',
        ADMIN_INITIAL_PASSWORD: 'Vt7q-Lw2x-Rp9m-Kd4s',
      }),
    ).toEqual([]);
  });

  it('refuses GATEWAY_TRUST_PROXY=true ("every hop")', () => {
    const { code, stderr } = runCli(['serve'], {
      GATEWAY_TRUST_PROXY: 'true',
      DATA_DIR: 'memory://',
    });
    expect(code).toBe(1);
    expect(stderr).toMatch(/GATEWAY_TRUST_PROXY: true would trust every hop/);
  });

  it('refuses one-service mode without DATABASE_URL', () => {
    const { code, stderr } = runCli(['serve', '--service', 'auth'], { DATA_DIR: 'memory://' });
    expect(code).toBe(1);
    expect(stderr).toMatch(/DATABASE_URL/);
  });
});
