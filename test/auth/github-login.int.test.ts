import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { startTestPlatform, uniq, type TestPlatform } from '../helpers/platform.js';
import { smtpSettings, startSmtpSink, waitForMail, type SmtpSink } from '../helpers/smtp-sink.js';
import { enableTotp, totpCodeAt } from '../helpers/totp.js';
import { GithubStandIn, type GithubAccount } from './github-stand-in.js';

const CALLBACK = 'https://console.example.test/oauth/callback';
const PASSWORD = 'Github-User-Pass-5';

const github = new GithubStandIn();
let platform: TestPlatform;
let sink: SmtpSink;
beforeAll(async () => {
  await github.start();
  sink = await startSmtpSink();
  platform = await startTestPlatform({
    ...smtpSettings(sink),
    OAUTH_LOGIN_ENABLED: 'true',
    OAUTH_GITHUB_CLIENT_ID: github.clientId,
    OAUTH_GITHUB_CLIENT_SECRET: github.clientSecret,
    OAUTH_GITHUB_BASE_URL: github.base,
    OAUTH_GITHUB_API_URL: `${github.base}/api/v3`,
    OAUTH_REDIRECT_URL: CALLBACK,
  });
}, 120_000);
afterAll(async () => {
  await platform?.close();
  await github.close();
  await sink?.close();
});

function account(emails: GithubAccount['emails'] = []): GithubAccount {
  return { id: randomInt(1, 2 ** 40), login: uniq('gh'), emails };
}

/** The browser's trip: to GitHub's authorize page, signed in there as `who`, and back. */
async function throughGithub(
  start: { authorization_url: string; state: string },
  who: GithubAccount,
) {
  github.signIn = who;
  const authorize = new URL(start.authorization_url);
  expect(`${authorize.origin}${authorize.pathname}`).toBe(`${github.base}/login/oauth/authorize`);
  expect(authorize.searchParams.get('redirect_uri')).toBe(`${CALLBACK}/github`);
  expect(authorize.searchParams.get('scope')).toBe('read:user user:email');
  const response = await fetch(authorize, { redirect: 'manual' });
  expect(response.status).toBe(302);
  const back = new URL(response.headers.get('location')!);
  expect(back.searchParams.get('state')).toBe(start.state);
  return { code: back.searchParams.get('code')!, state: back.searchParams.get('state')! };
}

async function signInWithGithub(who: GithubAccount) {
  const start = await platform.call('GET', '/api/v1/login/oauth/github');
  expect(start.status).toBe(200);
  return platform.call('POST', '/api/v1/login/oauth/github/callback', {
    body: await throughGithub(start.body.data, who),
    headers: { 'x-device-id': uniq('dev') },
  });
}

/** The refusal of an external account nobody linked: 40105, saying to link it from the profile. */
function notLinked(res: { status: number; body: any }) {
  expect(res.status).toBe(401);
  expect(res.body.code).toBe(40105);
  expect(res.body.message).toMatch(/link it from your profile/);
}

async function createUser(email?: string) {
  const username = uniq('ghu');
  const created = await platform.call('POST', '/api/v1/users', {
    token: await platform.adminToken(),
    body: { username, password: PASSWORD, ...(email ? { email } : {}) },
  });
  expect(created.status).toBe(200);
  return username;
}

async function linkFromProfile(username: string, who: GithubAccount) {
  const { access_token: token } = await platform.login(username, PASSWORD);
  const start = await platform.call('POST', '/api/v1/me/oauth/github/link', { token });
  expect(start.status).toBe(200);
  return platform.call('POST', '/api/v1/me/oauth/github/link/callback', {
    token,
    body: await throughGithub(start.body.data, who),
  });
}

describe('sign-in with GitHub (plain OAuth2 through openid-client)', () => {
  it('lists github as the one enabled provider for the sign-in page', async () => {
    const res = await platform.call('GET', '/api/v1/login/oauth');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ providers: ['github'] });
  });

  it('never links by e-mail, even a verified primary one: the user links from the profile, then signs in (login type github)', async () => {
    const email = `${uniq('gh')}@example.test`;
    const username = await createUser(email);
    for (const emails of [
      [{ email, primary: true, verified: true }],
      [{ email, primary: true, verified: false }],
      [
        { email: `${uniq('p')}@example.test`, primary: true, verified: true },
        { email, primary: false, verified: true },
      ],
    ]) {
      notLinked(await signInWithGithub(account(emails)));
    }
    const linksOfUser = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM auth_external_identities i
      JOIN iam_users u ON u.id = i.user_id WHERE u.username = ${username}`.execute(
      platform.kernel.database.db,
    );
    expect(linksOfUser.rows[0]!.n).toBe(0);

    const who = account([{ email, primary: true, verified: true }]);
    expect((await linkFromProfile(username, who)).status).toBe(200);
    const first = await signInWithGithub(who);
    expect(first.status).toBe(200);
    expect(first.body.data.user.username).toBe(username);
    const me = await platform.call('GET', '/api/v1/me', { token: first.body.data.access_token });
    expect(me.body.data.username).toBe(username);
    // The link is by the GitHub account's id: a sign-in needs no e-mail at all.
    const again = await signInWithGithub({ ...who, emails: [] });
    expect(again.status).toBe(200);
    expect(again.body.data.user.username).toBe(username);

    const admin = await platform.adminToken();
    const deadline = Date.now() + 15_000;
    let rows: Array<{ username: string; login_type: string; success: boolean }> = [];
    while (Date.now() < deadline && rows.length < 2) {
      const logs = await platform.call(
        'GET',
        `/api/v1/login-logs?username=${username}&login_type=github&page_size=10`,
        { token: admin },
      );
      rows = logs.body.data.list;
      if (rows.length < 2) await new Promise((r) => setTimeout(r, 200));
    }
    expect(rows).toHaveLength(2);
    expect(rows.every((r) => r.login_type === 'github' && r.success)).toBe(true);
  });

  it('asks a TOTP user for the code after the provider, as /login does, with the same code and state', async () => {
    const username = await createUser();
    const who = account();
    expect((await linkFromProfile(username, who)).status).toBe(200);
    const secret = await enableTotp(
      platform,
      (await platform.login(username, PASSWORD)).access_token,
      PASSWORD,
    );

    const start = await platform.call('GET', '/api/v1/login/oauth/github');
    const answer = await throughGithub(start.body.data, who);
    const callback = (body: Record<string, string>) =>
      platform.call('POST', '/api/v1/login/oauth/github/callback', { body });
    const asked = await callback(answer);
    expect(asked.status).toBe(400);
    expect(asked.body.code).toBe(40001);
    expect(asked.body.data.fields).toEqual([
      expect.objectContaining({ field: 'totp_code', rule: 'required' }),
    ]);
    expect(asked.body.data.access_token).toBeUndefined();
    const wrong = await callback({ ...answer, totp_code: '000000' });
    expect(wrong.status).toBe(401);
    expect(wrong.body.code).toBe(40103);
    const ok = await callback({ ...answer, totp_code: await totpCodeAt(secret) });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.data.user.username).toBe(username);
    // Signed in: the state is spent.
    const replay = await callback({ ...answer, totp_code: await totpCodeAt(secret, 1) });
    expect(replay.status).toBe(400);
  });

  it('audits linking and unlinking and mails the user about each', async () => {
    const email = `${uniq('mail')}@example.test`;
    const username = await createUser(email);
    const who = account();
    let before = sink.inbox.length;
    expect((await linkFromProfile(username, who)).status).toBe(200);
    const linkedMail = await waitForMail(sink, email, before);
    expect(linkedMail.raw).toMatch(/GitHub account was linked to your Approva account/);
    before = sink.inbox.length;
    const { access_token: token } = await platform.login(username, PASSWORD);
    expect((await platform.call('DELETE', '/api/v1/me/oauth/github', { token })).status).toBe(200);
    const unlinkedMail = await waitForMail(sink, email, before);
    expect(unlinkedMail.raw).toMatch(/GitHub account was unlinked from your Approva account/);

    const { rows } = await sql<{ action: string }>`
      SELECT action FROM audit_business_logs
      WHERE target_type = 'external_login' AND actor_name = ${username} ORDER BY seq`.execute(
      platform.kernel.database.db,
    );
    expect(rows.map((r) => r.action)).toEqual(['link', 'unlink']);
  });

  it('links explicitly from the profile; 409 when the GitHub account belongs to someone else', async () => {
    const owner = await createUser();
    const who = account();
    const linked = await linkFromProfile(owner, who);
    expect(linked.status).toBe(200);
    const signedIn = await signInWithGithub(who);
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.data.user.username).toBe(owner);

    const other = await createUser();
    const taken = await linkFromProfile(other, who);
    expect(taken.status).toBe(409);
    expect((await signInWithGithub(who)).body.data.user.username).toBe(owner);
  });

  it('lists the caller’s linked accounts and unlinks them; the unlinked account no longer signs in', async () => {
    const owner = await createUser();
    const who = account([{ email: `${uniq('o')}@example.test`, primary: true, verified: false }]);
    expect((await linkFromProfile(owner, who)).status).toBe(200);
    const { access_token: token } = await platform.login(owner, PASSWORD);
    const listed = await platform.call('GET', '/api/v1/me/oauth', { token });
    expect(listed.status).toBe(200);
    expect(listed.body.data.links).toEqual([
      { provider: 'github', email: who.emails[0]!.email, created_at: expect.any(String) },
    ]);
    expect((await platform.call('DELETE', '/api/v1/me/oauth/github', { token })).status).toBe(200);
    expect((await platform.call('GET', '/api/v1/me/oauth', { token })).body.data.links).toEqual([]);
    // Nothing left to unlink; and the GitHub account signs in as nobody.
    const again = await platform.call('DELETE', '/api/v1/me/oauth/github', { token });
    expect(again.status).toBe(404);
    notLinked(await signInWithGithub(who));
    // Another user's links are not the caller's to list.
    const other = await createUser();
    const otherToken = (await platform.login(other, PASSWORD)).access_token;
    expect(
      (await platform.call('GET', '/api/v1/me/oauth', { token: otherToken })).body.data.links,
    ).toEqual([]);
  });

  it('refuses a state it did not issue, and a code presented with another attempt’s state', async () => {
    const who = account();
    await linkFromProfile(await createUser(), who);
    const start = await platform.call('GET', '/api/v1/login/oauth/github');
    const answer = await throughGithub(start.body.data, who);
    const other = await platform.call('GET', '/api/v1/login/oauth/github');
    const mismatch = await platform.call('POST', '/api/v1/login/oauth/github/callback', {
      body: { code: answer.code, state: other.body.data.state },
    });
    expect(mismatch.status).toBe(401);
    const forged = await platform.call('POST', '/api/v1/login/oauth/github/callback', {
      body: { code: answer.code, state: 'not-issued' },
    });
    expect(forged.status).toBe(400);
    expect(forged.body.code).toBe(40001);

    const ok = await platform.call('POST', '/api/v1/login/oauth/github/callback', {
      body: await throughGithub(start.body.data, who),
    });
    expect(ok.status).toBe(200);
  });
});
