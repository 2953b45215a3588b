import { createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, uniq, type TestPlatform } from '../helpers/platform.js';
import { smtpSettings, startSmtpSink, waitForMail, type SmtpSink } from '../helpers/smtp-sink.js';
import { createDefinition, createUserWith, singleApproval } from '../bpm/fixtures.js';
import { auditRowsOf, createTenant, eventually } from './system-fixtures.js';

// Notification templates: edited online by platform administrators; BPM's notices (inbox and
// NOTIFY_API_BASE, configured here) and the password-reset mail use the current text.

const notified: any[] = [];
const receiver = createServer((req, res) => {
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', () => {
    notified.push(JSON.parse(body));
    res.end();
  });
});
let sink: SmtpSink;
let platform: TestPlatform;
let admin: string;

beforeAll(async () => {
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
  sink = await startSmtpSink();
  platform = await startTestPlatform({
    ...smtpSettings(sink),
    NOTIFY_API_BASE: `http://127.0.0.1:${(receiver.address() as { port: number }).port}/notify`,
    NOTIFY_API_TOKEN: 'notify-Hq5-7wE3-token',
    BPM_OUTBOX_POLL_INTERVAL: '100ms',
    PASSWORD_RESET_URL: 'https://console.example.test/reset',
  });
  admin = await platform.adminToken();
});
afterAll(async () => {
  await platform?.close();
  await sink?.close();
  await new Promise((r) => receiver.close(r));
});

const call = (method: string, path: string, body?: unknown, token = admin) =>
  platform.call(method, path, { token, ...(body !== undefined ? { body } : {}) });

describe('notification templates', () => {
  it('list every template in zh-CN and en-US with its placeholders and default', async () => {
    const res = await call('GET', '/api/v1/system/templates');
    expect(res.status).toBe(200);
    const ids = res.body.data.map((t: any) => `${t.key}/${t.lang}`);
    for (const key of [
      'bpm.todo',
      'bpm.cc',
      'bpm.timeout',
      'bpm.terminal',
      'auth.password_reset',
    ]) {
      expect(ids).toEqual(expect.arrayContaining([`${key}/zh-CN`, `${key}/en-US`]));
    }
    expect(
      res.body.data.find((t: any) => t.key === 'bpm.todo' && t.lang === 'zh-CN'),
    ).toMatchObject({
      placeholders: ['instance_title', 'instance_id'],
      default_title: '待审批',
      overridden: false,
    });
  });

  it('give BPM\u2019s notices the edited text, in the inbox and at NOTIFY_API_BASE', async () => {
    const put = await call('PUT', '/api/v1/system/templates/bpm.todo/en-US', {
      title: 'Please decide on {{ instance_title }}',
      body: 'Request #{{instance_id}} "{{instance_title}}" waits for you.',
    });
    expect(put.status).toBe(200);
    expect(put.body.data).toMatchObject({ overridden: true, default_title: 'Approval needed' });
    try {
      const [initiator, approver] = [
        await createUserWith(platform, []),
        await createUserWith(platform, []),
      ];
      const created = await createDefinition(platform, admin, {
        node_tree: singleApproval([approver.id]),
      });
      await call('POST', `/api/v1/bpm/definitions/${created.body.data.id}/publish`);
      const started = await call(
        'POST',
        '/api/v1/bpm/instances',
        {
          definition_key: created.body.data.key,
          form: { reason: 'r', days: 1 },
        },
        initiator.token,
      );
      const { id, title } = started.body.data;
      const inbox = async () =>
        (await call('GET', '/api/v1/inbox', undefined, approver.token)).body.data.list;
      expect(await eventually(async () => (await inbox()).length === 1)).toBe(true);
      expect((await inbox())[0]).toMatchObject({
        title: `Please decide on ${title}`,
        body: `Request #${id} "${title}" waits for you.`,
      });
      expect(await eventually(async () => notified.some((n) => n.instance_id === id))).toBe(true);
      expect(notified.find((n) => n.instance_id === id)).toMatchObject({
        kind: 'todo',
        user_ids: [approver.id],
        title: `Please decide on ${title}`,
      });
    } finally {
      const restored = await call('DELETE', '/api/v1/system/templates/bpm.todo/en-US');
      expect(restored.body.data).toMatchObject({ overridden: false, title: 'Approval needed' });
    }
    const rows = await auditRowsOf(platform, admin, 'template', 'bpm.todo/en-US');
    expect(rows.slice(0, 2).map((r) => r.action)).toEqual(['delete', 'update']);
  });

  it('give the password-reset mail the edited subject and body', async () => {
    await call('PUT', '/api/v1/system/templates/auth.password_reset/en-US', {
      title: 'Your reset link',
      body: 'Dear {{username}}: {{link}} (custom)',
    });
    try {
      const username = uniq('tpl');
      const email = `${username}@mail.example.test`;
      await call('POST', '/api/v1/users', { username, password: 'Initial-Pass-42', email });
      await platform.call('POST', '/api/v1/password/forgot', {
        body: { username_or_email: username },
      });
      const mail = await waitForMail(sink, email);
      const raw = mail.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
      expect(raw).toContain('Subject: Your reset link');
      expect(raw).toContain(`Dear ${username}: https://console.example.test/reset?token=`);
      expect(raw).toContain('(custom)');
    } finally {
      await call('DELETE', '/api/v1/system/templates/auth.password_reset/en-US');
    }
  });

  it('refuse unknown placeholders (40001), keys and languages (404), changing nothing', async () => {
    const bad = await call('PUT', '/api/v1/system/templates/bpm.cc/zh-CN', {
      title: '{{user_name}}',
      body: '{{instance_title}} {{ password }}',
    });
    expect([bad.status, bad.body.code]).toEqual([400, 40001]);
    expect(bad.body.data.fields.map((f: any) => f.field)).toEqual(['title', 'body']);
    expect(bad.body.data.fields[1].message).toContain('{{password}}');
    for (const path of ['bpm.nothing/en-US', 'bpm.cc/fr-FR']) {
      const res = await call('PUT', `/api/v1/system/templates/${path}`, { title: 'x', body: 'y' });
      expect([res.status, res.body.code], path).toEqual([404, 40400]);
    }
    for (const path of ['bpm.cc/english', 'BPM.CC/en-US']) {
      const res = await call('PUT', `/api/v1/system/templates/${path}`, { title: 'x', body: 'y' });
      expect([res.status, res.body.code], path).toEqual([400, 40000]);
    }
    for (const body of [
      { title: '', body: 'y' },
      { title: 'x' },
      { title: 'x', body: 'y'.repeat(10_001) },
    ]) {
      const res = await call('PUT', '/api/v1/system/templates/bpm.cc/zh-CN', body);
      expect([res.status, res.body.code]).toEqual([400, 40001]);
    }
    const cc = (await call('GET', '/api/v1/system/templates')).body.data.find(
      (t: any) => t.key === 'bpm.cc' && t.lang === 'zh-CN',
    );
    expect(cc.overridden).toBe(false);
  });

  it('are for platform administrators holding the code only', async () => {
    const tenant = await createTenant(platform, admin);
    const put = await call(
      'PUT',
      '/api/v1/system/templates/bpm.cc/en-US',
      { title: 'x', body: 'y' },
      tenant.token,
    );
    expect([put.status, put.body.code]).toEqual([403, 40300]);
    expect((await call('GET', '/api/v1/system/templates', undefined, tenant.token)).status).toBe(
      403,
    );
  });
});
