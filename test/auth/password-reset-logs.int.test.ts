import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, uniq, type TestPlatform } from '../helpers/platform.js';
import { smtpSettings, startSmtpSink, type SmtpSink } from '../helpers/smtp-sink.js';
import { until } from '../helpers/until.js';

const PASSWORD = 'Logged-Reset-Pass-7';
const RESET_URL = 'https://console.example.test/reset';
const PRODUCTION_ADMIN = 'Production-Admin-Pass-9';

/** A platform whose log lines are kept, one string each. */
async function platformWithLogs(
  env: Record<string, string>,
  production = false,
): Promise<{ platform: TestPlatform; lines: string[] }> {
  const lines: string[] = [];
  const platform = await startTestPlatform(
    { PASSWORD_RESET_URL: RESET_URL, LOG_LEVEL: 'debug', ...env },
    {
      logs: { write: (line: string) => void lines.push(line) },
      // APP_ENV=production refuses to start without a passworded PostgreSQL (the production
      // checks); the flag it sets is what the reset service reads.
      ...(production ? { adjust: (s) => ({ ...s, env: 'production', production: true }) } : {}),
    },
  );
  return { platform, lines };
}

/** Asks for a reset link for a new user with an e-mail address. */
async function forgotFor(platform: TestPlatform, adminToken?: string) {
  const username = uniq('rlog');
  const email = `${username}@mail.example.test`;
  const created = await platform.call('POST', '/api/v1/users', {
    token: adminToken ?? (await platform.adminToken()),
    body: { username, password: PASSWORD, email },
  });
  expect(created.status).toBe(200);
  const res = await platform.call('POST', '/api/v1/password/forgot', {
    body: { username_or_email: username },
  });
  expect(res.status).toBe(200);
  return { username, email };
}

let sink: SmtpSink;
let development: Awaited<ReturnType<typeof platformWithLogs>>;
let production: Awaited<ReturnType<typeof platformWithLogs>>;
let mailing: Awaited<ReturnType<typeof platformWithLogs>>;
beforeAll(async () => {
  sink = await startSmtpSink();
  development = await platformWithLogs({ APP_ENV: 'development' });
  production = await platformWithLogs({ ADMIN_INITIAL_PASSWORD: PRODUCTION_ADMIN }, true);
  mailing = await platformWithLogs(smtpSettings(sink));
}, 180_000);
afterAll(async () => {
  await development?.platform.close();
  await production?.platform.close();
  await mailing?.platform.close();
  await sink?.close();
});

describe('the password-reset link in the logs', () => {
  it('is logged without mail in development, and the logged link works', async () => {
    const { platform, lines } = development;
    const { email } = await forgotFor(platform);
    const line = await until('the logged link', () =>
      lines.find((l) => l.includes(`${RESET_URL}?token=`) && l.includes(email)),
    );
    const token = decodeURIComponent(/token=([^"&\s]+)/.exec(line)![1]!);
    const reset = await platform.call('POST', '/api/v1/password/reset', {
      body: { token, new_password: 'Brand-New-Pass-8' },
    });
    expect(reset.status).toBe(200);
  });

  it('is never logged without mail in production: a warning says mail is not configured', async () => {
    const { platform, lines } = production;
    expect(platform.settings.production).toBe(true);
    const before = lines.length;
    await forgotFor(platform, (await platform.login('admin', PRODUCTION_ADMIN)).access_token);
    await until('the warning', () =>
      lines.slice(before).find((l) => l.includes('mail is not configured (MAIL_ENABLED')),
    );
    expect(lines.join('\n')).not.toContain('token=');
  });

  it('never puts the token in the logs when the mail goes out over SMTP', async () => {
    const { platform, lines } = mailing;
    const { email } = await forgotFor(platform);
    const mail = await until('the mail', () => sink.inbox.find((m) => m.to.includes(email)));
    const body = mail.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
    const token = /reset\?token=([A-Za-z0-9_-]+)/.exec(body)![1]!;
    await until('the sent-mail log line', () => lines.find((l) => l.includes('"mail sent"')));
    expect(lines.length).toBeGreaterThan(10);
    expect(lines.join('\n')).not.toContain(token);
    expect(lines.join('\n')).not.toContain('token=');
  });
});
