import { describe, expect, it } from 'vitest';
import { ConfigError, parseSettings } from '../../config/settings.js';
import { systemSettings } from './system.settings.js';

const loadSettings = (env: Record<string, string>) =>
  parseSettings(env, [{ name: 'system', settings: systemSettings }]);

const productionBase = {
  APP_ENV: 'production',
  JWT_SECRET: 'k8Jq2vN5xR7tW1zB4mC6pL9sD3fG0hY2uE5iO8aQ',
  AUDIT_CHAIN_SECRET: 'Qm4v-Zx8r-Tn2k-Wp6s-Hd9f-Lc3j-Bg7y',
  DATABASE_URL: 'postgres://approva:Vt7q-Lw2x-Rp9m@db:5432/approva',
};

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadSettings(env);
    return [];
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
}

describe('system settings', () => {
  it('default to a 30 s error-text refresh, en-US templates, no SMS token or provider', () => {
    const { system, errorTextRefreshMs } = loadSettings({});
    expect(errorTextRefreshMs).toBe(30_000);
    expect(system.templateLanguage).toBe('en-US');
    expect(system.internalToken).toBeUndefined();
    expect(system.sms.providerUrl).toBeUndefined();
    expect(system.encryptionSecret).toBe(loadSettings({}).jwtSecret);
  });

  it.each(['SYSTEM_INTERNAL_TOKEN', 'SYSTEM_ENCRYPTION_KEY'])(
    'refuse a short or placeholder %s in production, and accept a strong or absent one',
    (name) => {
      for (const weak of ['changeme', 'short-token', 'change-me-change-me-change-me-change-me']) {
        expect(problemsOf({ ...productionBase, [name]: weak }).join('\n')).toMatch(name);
      }
      expect(
        problemsOf({ ...productionBase, [name]: 'Zr8-Kq2v-Wm5x-Tn7p-Hd3f-Lc9j-Bg4y-Qs6' }),
      ).toEqual([]);
      expect(problemsOf(productionBase)).toEqual([]);
    },
  );

  it('accept any token outside production (the endpoint still refuses a wrong one)', () => {
    expect(loadSettings({ SYSTEM_INTERNAL_TOKEN: 'changeme' }).system.internalToken).toBe(
      'changeme',
    );
  });
});
