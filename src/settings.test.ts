import { describe, expect, it } from 'vitest';
import { parseDurationMs } from './config/duration.js';
import { isPlaceholderSecret, isWeakSecret } from './config/secrets.js';
import { callbackSuffix } from './services/bpm/bpm.settings.js';
import { loadSettings } from './start.js';
import { ConfigError } from './config/settings.js';

const STRONG_JWT = 'k8Jq2vN5xR7tW1zB4mC6pL9sD3fG0hY2uE5iO8aQ';
const productionBase = {
  APP_ENV: 'production',
  JWT_SECRET: STRONG_JWT,
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

describe('settings', () => {
  it('starts with no settings at all outside production', () => {
    const settings = loadSettings({});
    expect(settings.http.port).toBe(8080);
    expect(settings.database.url).toBeUndefined();
    expect(settings.gateway.rateAverage).toBe(100);
    expect(settings.gateway.rateBurst).toBe(200);
    expect(settings.auth.captcha).toBe('after_failures');
    expect(settings.metrics.enabled).toBe(true);
  });

  it('names every malformed setting at once', () => {
    const problems = problemsOf({
      PORT: 'eighty',
      ACCESS_TOKEN_TTL: 'soon',
      METRICS_ENABLED: 'maybe',
    });
    expect(problems.join('\n')).toMatch(/PORT/);
    expect(problems.join('\n')).toMatch(/ACCESS_TOKEN_TTL/);
    expect(problems.join('\n')).toMatch(/METRICS_ENABLED/);
  });

  it('accepts a strong production configuration', () => {
    expect(problemsOf(productionBase)).toEqual([]);
  });

  it('refuses failpoints in production, and carries them elsewhere', () => {
    const failpoint = 'after_audit_write:error';
    expect(problemsOf({ ...productionBase, FAILPOINT: failpoint }).join('\n')).toMatch(/FAILPOINT/);
    expect(loadSettings({ APP_ENV: 'test', FAILPOINT: failpoint }).failpoint).toBe(failpoint);
  });

  it.each([
    ['short', 'abc'],
    ['placeholder', 'change-me-change-me-change-me-change-me'],
    ['dev- prefix', 'dev-0123456789abcdef0123456789abcdef'],
    ['default', ''],
  ])('refuses a %s JWT_SECRET in production', (_label, secret) => {
    const env: Record<string, string> = { ...productionBase, JWT_SECRET: secret };
    if (secret === '') delete env.JWT_SECRET;
    expect(problemsOf(env).join('\n')).toMatch(/JWT_SECRET/);
  });

  it('refuses an empty or weak database password in production', () => {
    expect(
      problemsOf({ ...productionBase, DATABASE_URL: 'postgres://approva@db/approva' }).join(),
    ).toMatch(/DB_PASSWORD/);
    expect(
      problemsOf({
        ...productionBase,
        DATABASE_URL: 'postgres://approva:postgres@db/approva',
      }).join(),
    ).toMatch(/DB_PASSWORD/);
    expect(problemsOf({ ...productionBase, DB_PASSWORD: 'password' }).join()).toMatch(
      /DB_PASSWORD/,
    );
  });

  it('checks REDIS_PASSWORD only when Redis is used', () => {
    expect(problemsOf({ ...productionBase, REDIS_PASSWORD: 'redis' })).toEqual([]);
    expect(
      problemsOf({
        ...productionBase,
        REDIS_URL: 'redis://r:6379',
        REDIS_PASSWORD: 'redis',
      }).join(),
    ).toMatch(/REDIS_PASSWORD/);
    expect(problemsOf({ ...productionBase, REDIS_URL: 'redis://:123456@r:6379' }).join()).toMatch(
      /REDIS_PASSWORD/,
    );
  });

  it('checks object-storage keys only for s3 or minio', () => {
    expect(problemsOf({ ...productionBase, S3_SECRET_KEY: 'x' })).toEqual([]);
    const problems = problemsOf({
      ...productionBase,
      UPLOAD_STORAGE_TYPE: 'minio',
      S3_ACCESS_KEY: 'minioadmin',
    });
    expect(problems.join()).toMatch(/S3_ACCESS_KEY/);
    expect(problems.join()).toMatch(/S3_SECRET_KEY/);
  });

  it('checks the SMTP password only when mail is on with a host and authentication', () => {
    expect(problemsOf({ ...productionBase, SMTP_HOST: 'smtp', SMTP_USER: 'u' })).toEqual([]);
    expect(problemsOf({ ...productionBase, MAIL_ENABLED: 'true', SMTP_HOST: 'smtp' })).toEqual([]);
    expect(
      problemsOf({
        ...productionBase,
        MAIL_ENABLED: 'true',
        SMTP_HOST: 'smtp',
        SMTP_USER: 'u',
        SMTP_PASSWORD: 'secret',
      }).join(),
    ).toMatch(/SMTP_PASSWORD/);
  });

  it('checks OAuth client secrets only when the switch is on and the set is configured', () => {
    const weak = { OAUTH_GITHUB_CLIENT_ID: 'id', OAUTH_GITHUB_CLIENT_SECRET: 'changeme' };
    expect(problemsOf({ ...productionBase, ...weak })).toEqual([]);
    expect(problemsOf({ ...productionBase, ...weak, OAUTH_LOGIN_ENABLED: 'true' }).join()).toMatch(
      /OAUTH_GITHUB_CLIENT_SECRET/,
    );
    expect(
      problemsOf({
        ...productionBase,
        OAUTH_LOGIN_ENABLED: 'true',
        OAUTH_GOOGLE_CLIENT_SECRET: 'changeme',
      }),
    ).toEqual([]);
  });

  it('does not check production rules outside production', () => {
    expect(problemsOf({ JWT_SECRET: 'x', DB_PASSWORD: 'postgres' })).toEqual([]);
  });

  it('collects BPM_CALLBACK_<BIZTYPE> targets, not the callback token', () => {
    const settings = loadSettings({
      BPM_CALLBACK_CONTRACT_V2: 'http://erp/cb',
      BPM_CALLBACK_TOKEN: 'token-123456',
    });
    expect(settings.bpm.callbacks).toEqual({ CONTRACT_V2: 'http://erp/cb' });
    expect(callbackSuffix('contract.v2')).toBe('CONTRACT_V2');
  });

  it('derives a gateway signing key that differs from the JWT secret', () => {
    const settings = loadSettings({ JWT_SECRET: STRONG_JWT });
    expect(settings.gateway.signingSecret).not.toBe(STRONG_JWT);
    expect(settings.gateway.signingSecret).toHaveLength(64);
  });
});

describe('durations', () => {
  it.each([
    ['500ms', 500],
    ['30s', 30_000],
    ['5m', 300_000],
    ['1h', 3_600_000],
    ['7d', 604_800_000],
    ['90', 90_000],
  ])('parses %s', (text, ms) => expect(parseDurationMs(text)).toBe(ms));

  it.each(['', 'abc', '5 minutes', '-5s', '1e3'])('refuses %j', (text) => {
    expect(parseDurationMs(text)).toBeUndefined();
  });
});

describe('secret strength', () => {
  it('flags well-known, short and repeated values as weak', () => {
    for (const v of ['postgres', 'admin123', 'short', 'aaaaaaaaaaaa', 'Password'])
      expect(isWeakSecret(v)).toBe(true);
    expect(isWeakSecret('Vt7q-Lw2x-Rp9m')).toBe(false);
  });

  it('flags placeholders', () => {
    for (const v of [
      'your-secret-here-1234',
      'CHANGE_ME_PLEASE_1234',
      'dev-secret-1234567',
      'xxxxxxxxxxxxxxxx',
    ]) {
      expect(isPlaceholderSecret(v)).toBe(true);
    }
    expect(isPlaceholderSecret(STRONG_JWT)).toBe(false);
  });
});

describe('development defaults reachable from the network', () => {
  const strong = { JWT_SECRET: STRONG_JWT, ADMIN_INITIAL_PASSWORD: 'Vt7q-Lw2x-Rp9m-Kd4s' };

  it('listen on loopback by default, so a fresh start works with the defaults', () => {
    const settings = loadSettings({});
    expect(settings.http.host).toBe('127.0.0.1');
    expect(settings.defaultsInUse).toEqual([
      'JWT_SECRET (the development value)',
      'ADMIN_INITIAL_PASSWORD (the seeded admin123)',
    ]);
  });

  it('names no default once both are set', () => {
    expect(loadSettings(strong).defaultsInUse).toEqual([]);
  });

  it.each(['0.0.0.0', '::', '10.1.2.3', 'app.internal'])(
    'refuse HOST=%s with both defaults, naming each',
    (host) => {
      const problems = problemsOf({ HOST: host });
      expect(problems).toHaveLength(2);
      expect(problems[0]).toMatch(/^JWT_SECRET .*HOST=/);
      expect(problems[1]).toMatch(/^ADMIN_INITIAL_PASSWORD .*admin123/);
    },
  );

  it('refuse a non-loopback SERVICE_HOST too', () => {
    expect(problemsOf({ SERVICE_HOST: '0.0.0.0' }).join('\n')).toMatch(/SERVICE_HOST=0\.0\.0\.0/);
  });

  it('refuse each default on its own', () => {
    const onlyJwt = problemsOf({ HOST: '0.0.0.0', ADMIN_INITIAL_PASSWORD: 'Vt7q-Lw2x-Rp9m-Kd4s' });
    expect(onlyJwt).toEqual([expect.stringMatching(/^JWT_SECRET/)]);
    const onlyAdmin = problemsOf({ HOST: '0.0.0.0', JWT_SECRET: STRONG_JWT });
    expect(onlyAdmin).toEqual([expect.stringMatching(/^ADMIN_INITIAL_PASSWORD/)]);
    const adminSetToDefault = problemsOf({
      ...strong,
      HOST: '0.0.0.0',
      ADMIN_INITIAL_PASSWORD: 'admin123',
    });
    expect(adminSetToDefault).toEqual([expect.stringMatching(/^ADMIN_INITIAL_PASSWORD/)]);
  });

  it('allow a non-loopback HOST with the defaults only under an explicit APP_ENV=development', () => {
    expect(problemsOf({ HOST: '0.0.0.0', APP_ENV: 'development' })).toEqual([]);
    expect(problemsOf({ HOST: '0.0.0.0', APP_ENV: 'test' })).toHaveLength(2);
  });

  it.each(['127.0.0.1', '127.8.9.10', 'localhost', '::1', '[::1]', '::ffff:127.0.0.1'])(
    'allow the defaults on loopback HOST=%s',
    (host) => expect(problemsOf({ HOST: host })).toEqual([]),
  );

  it('do not count the seed password in production, where it is never seeded', () => {
    expect(problemsOf({ ...productionBase, HOST: '0.0.0.0' })).toEqual([]);
    expect(loadSettings({ ...productionBase, HOST: '0.0.0.0' }).defaultsInUse).toEqual([]);
  });

  it('allow a non-loopback HOST once neither default is in use', () => {
    expect(problemsOf({ ...strong, HOST: '0.0.0.0' })).toEqual([]);
  });
});

describe('GATEWAY_IN_PROCESS', () => {
  it('is on by default; 0 or false keeps the loopback HTTP hop', () => {
    expect(loadSettings({}).gateway.inProcess).toBe(true);
    expect(loadSettings({ GATEWAY_IN_PROCESS: '0' }).gateway.inProcess).toBe(false);
    expect(loadSettings({ GATEWAY_IN_PROCESS: 'false' }).gateway.inProcess).toBe(false);
  });
});

describe('GATEWAY_TRUST_PROXY', () => {
  const trust = (value: string) => loadSettings({ GATEWAY_TRUST_PROXY: value }).gateway.trustProxy;

  it('is off by default and for false/0', () => {
    expect(loadSettings({}).gateway.trustProxy).toBe(false);
    expect(trust('false')).toBe(false);
    expect(trust('0')).toBe(false);
  });

  it('takes a hop count', () => {
    expect(trust('1')).toBe(1);
    expect(trust('2')).toBe(2);
  });

  it('takes a list of addresses and CIDRs', () => {
    expect(trust('10.0.0.0/8, 192.168.1.7,fd00::/8')).toEqual([
      '10.0.0.0/8',
      '192.168.1.7',
      'fd00::/8',
    ]);
  });

  it.each(['true', 'yes', 'on', 'TRUE'])('refuses %s ("every hop")', (value) => {
    expect(problemsOf({ GATEWAY_TRUST_PROXY: value }).join('\n')).toMatch(
      /GATEWAY_TRUST_PROXY: .*every hop/,
    );
  });

  it.each(['11', '10.0.0.0/33', 'loadbalancer', '10.0.0.0/8,', '1.2.3.4/8/9', '-1'])(
    'refuses %j',
    (value) =>
      expect(problemsOf({ GATEWAY_TRUST_PROXY: value }).join('\n')).toMatch(/GATEWAY_TRUST_PROXY/),
  );
});

describe('audit chain keys', () => {
  it('derive from JWT_SECRET outside production, differently from it and from each other', () => {
    const chain = loadSettings({ JWT_SECRET: STRONG_JWT }).auditChain;
    expect(chain.linkKey).toHaveLength(32);
    expect(chain.linkKey.equals(chain.checkpointKey)).toBe(false);
    const other = loadSettings({ JWT_SECRET: `${STRONG_JWT}x` }).auditChain;
    expect(other.linkKey.equals(chain.linkKey)).toBe(false);
  });

  it('come from AUDIT_CHAIN_SECRET when set, whatever JWT_SECRET is', () => {
    const a = loadSettings({ JWT_SECRET: STRONG_JWT, AUDIT_CHAIN_SECRET: 'k'.repeat(40) });
    const b = loadSettings({ JWT_SECRET: 'x', AUDIT_CHAIN_SECRET: 'k'.repeat(40) });
    expect(a.auditChain.linkKey.equals(b.auditChain.linkKey)).toBe(true);
  });

  it.each([
    ['unset', undefined],
    ['short', 'abc'],
    ['a placeholder', 'change-me-change-me-change-me-change-me'],
  ])('refuse an AUDIT_CHAIN_SECRET that is %s in production', (_label, secret) => {
    const env: Record<string, string> = { ...productionBase };
    if (secret === undefined) delete env.AUDIT_CHAIN_SECRET;
    else env.AUDIT_CHAIN_SECRET = secret;
    expect(problemsOf(env).join('\n')).toMatch(/AUDIT_CHAIN_SECRET/);
  });

  it('keep checkpoints in a file under DATA_DIR unless off or in memory', () => {
    expect(loadSettings({ DATA_DIR: '/var/approva/' }).auditChain.checkpointFile).toBe(
      '/var/approva/audit-checkpoints.jsonl',
    );
    expect(loadSettings({ DATA_DIR: 'memory://' }).auditChain.checkpointFile).toBeUndefined();
    expect(
      loadSettings({ AUDIT_CHECKPOINT_FILE: 'off' }).auditChain.checkpointFile,
    ).toBeUndefined();
    expect(loadSettings({ AUDIT_CHECKPOINT_FILE: '/x/cp' }).auditChain.checkpointFile).toBe(
      '/x/cp',
    );
    expect(loadSettings({}).auditChain.checkpointIntervalMs).toBe(60_000);
  });
});
