import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from '../helpers/platform.js';
import { download, upload } from '../files/files-fixtures.js';
import { approval, chain, createDefinition, flowHelpers, type User } from './fixtures.js';

// File fields (BPM.md, issue 17): a form holds ids of uploaded files; a submitter attaches only
// their own uploads of an accepted type; readers get fresh links only for fields they may see;
// a file a live request holds cannot be deleted.

let platform: TestPlatform;
let admin: string;
const h = () => flowHelpers(platform, () => admin);

beforeAll(async () => {
  platform = await startTestPlatform();
  admin = await platform.adminToken();
});
afterAll(() => platform?.close());

const FORM = {
  fields: [
    { key: 'reason', label: 'Reason', type: 'input' },
    {
      key: 'receipts',
      label: 'Receipts',
      type: 'file',
      required: true,
      maxCount: 2,
      accept: ['application/pdf', 'image/*'],
    },
    { key: 'contract', label: 'Contract', type: 'file' },
  ],
};

async function uploaded(user: User, name: string, type: string) {
  const res = await upload(platform, user.token, randomBytes(256), name, type);
  expect(res.status).toBe(200);
  return res.body.data as { id: number; name: string };
}

/** A published flow: one approval by `approver`, who does not see the contract. */
async function flow(approver: User, extra: Record<string, unknown> = {}) {
  const tree = chain(approval('approve', [approver.id], { hiddenFields: ['contract'], ...extra }));
  return h().publish(tree, { form_schema: FORM });
}

describe('file fields', () => {
  it('links the files a reader may see, freshly signed, and hides the rest', async () => {
    const { start, pendingTaskOf, get } = h();
    const [initiator, approver] = await h().users(2);
    const def = await flow(approver);
    const pdf = await uploaded(initiator, 'receipt.pdf', 'application/pdf');
    const png = await uploaded(initiator, 'photo.png', 'image/png');
    const contract = await uploaded(initiator, 'contract.docx', 'application/msword');
    const started = await start(initiator, def.key, {
      receipts: [pdf.id, png.id],
      contract: [contract.id],
    });
    expect(started.status).toBe(200);
    const detail = started.body.data;
    expect(detail.form).toEqual({ receipts: [pdf.id, png.id], contract: [contract.id] });
    expect(detail.files.receipts.map((f: { name: string }) => f.name)).toEqual([
      'receipt.pdf',
      'photo.png',
    ]);
    const got = await download(platform, detail.files.contract[0].url);
    expect(got.response.status).toBe(200);

    const task = await pendingTaskOf(approver, detail.id);
    const seen = (await get(approver, `/api/v1/bpm/tasks/${task.id}`)).body.data.instance;
    expect(seen.form).toEqual({ receipts: [pdf.id, png.id] });
    expect(Object.keys(seen.files)).toEqual(['receipts']);
    expect((await download(platform, seen.files.receipts[1].url)).response.status).toBe(200);
  });

  it("refuses another person's file, an unknown one, a type not accepted and too many (40002)", async () => {
    const { start } = h();
    const [initiator, approver, other] = await h().users(3);
    const def = await flow(approver);
    const mine = await uploaded(initiator, 'a.pdf', 'application/pdf');
    const mine2 = await uploaded(initiator, 'b.pdf', 'application/pdf');
    const text = await uploaded(initiator, 'notes.txt', 'text/plain');
    const theirs = await uploaded(other, 'secret.pdf', 'application/pdf');
    for (const [receipts, rule] of [
      [[theirs.id], 'option'],
      [[999_999_999], 'option'],
      [[text.id], 'option'],
      [[mine.id, mine2.id, text.id], 'range'],
      [[mine.id, mine.id], 'format'],
      [['x'], 'type'],
      [[], 'required'],
    ] as const) {
      const res = await start(initiator, def.key, { receipts });
      expect([res.status, res.body.code], JSON.stringify(receipts)).toEqual([400, 40002]);
      expect(res.body.data.fields).toEqual([expect.objectContaining({ field: 'receipts', rule })]);
    }
    const held = await platform.call('GET', `/api/v1/files/${theirs.id}/url`, {
      token: initiator.token,
    });
    expect(held.status).toBe(404);
  });

  it('keeps a held file until the request is over; an approver may add their own file', async () => {
    const { start, pendingTaskOf, act } = h();
    const [initiator, approver] = await h().users(2);
    const def = await flow(approver, { editableFields: ['receipts'] });
    const pdf = await uploaded(initiator, 'a.pdf', 'application/pdf');
    const id = (await start(initiator, def.key, { receipts: [pdf.id] })).body.data.id;
    const remove = (user: User, fileId: number) =>
      platform.call('DELETE', `/api/v1/files/${fileId}`, { token: user.token });
    expect((await remove(initiator, pdf.id)).status).toBe(409);

    const theirs = await uploaded(approver, 'stamp.png', 'image/png');
    const task = await pendingTaskOf(approver, id);
    const stranger = await uploaded(initiator, 'other.pdf', 'application/pdf');
    const refused = await act(approver, task.id, 'approve', {
      form: { receipts: [pdf.id, stranger.id] },
    });
    expect([refused.status, refused.body.code]).toEqual([400, 40002]);
    const approved = await act(approver, task.id, 'approve', {
      form: { receipts: [pdf.id, theirs.id] },
    });
    expect(approved.status).toBe(200);
    expect(approved.body.data.instance.status).toBe('approved');
    // Over: both files may go now.
    expect((await remove(approver, theirs.id)).status).toBe(200);
    expect((await remove(initiator, pdf.id)).status).toBe(200);
  });

  it('a running request holds its files; one that is withdrawn releases them', async () => {
    const { start } = h();
    const [initiator, approver] = await h().users(2);
    const def = await flow(approver);
    const pdf = await uploaded(initiator, 'a.pdf', 'application/pdf');
    const id = (await start(initiator, def.key, { receipts: [pdf.id] })).body.data.id;
    const remove = () =>
      platform.call('DELETE', `/api/v1/files/${pdf.id}`, { token: initiator.token });
    expect((await remove()).status).toBe(409);
    const canceled = await platform.call('POST', `/api/v1/bpm/instances/${id}/cancel`, {
      token: initiator.token,
      body: {},
    });
    expect(canceled.status).toBe(200);
    expect((await remove()).status).toBe(200);
  });

  it('refuses file settings that do not fit at publish time, and conditions other than empty', async () => {
    const bad = [
      { key: 'n', label: 'N', type: 'number', maxCount: 2 },
      { key: 'f', label: 'F', type: 'file', maxCount: 21 },
      { key: 'f', label: 'F', type: 'file', accept: ['PDF'] },
      { key: 'f', label: 'F', type: 'input', accept: ['application/pdf'] },
    ];
    for (const field of bad) {
      const res = await platform.call('POST', '/api/v1/bpm/definitions', {
        token: admin,
        body: {
          key: `files-${Math.random().toString(36).slice(2, 8)}`,
          name: 'Files',
          form_mode: 'flow',
          form_schema: { fields: [field] },
          node_tree: chain(approval('a', [1])),
        },
      });
      expect(res.status, JSON.stringify(field)).toBe(400);
    }
    const [approver] = await h().users(1);
    const branchOn = (condition: Record<string, unknown>) =>
      chain({
        id: 'b',
        type: 'branch',
        name: 'B',
        branches: [
          { id: 'with', name: 'With files', condition, child: approval('x', [approver.id]) },
          { id: 'without', name: 'Otherwise', default: true, child: approval('y', [approver.id]) },
        ],
        child: null,
      });
    const draft = await createDefinition(platform, admin, {
      form_schema: FORM,
      node_tree: branchOn({ field: 'contract', op: 'eq', value: 1 }),
    });
    const refused = await platform.call(
      'POST',
      `/api/v1/bpm/definitions/${draft.body.data.id}/publish`,
      { token: admin },
    );
    expect(refused.status).toBe(400);
    const def = await h().publish(branchOn({ field: 'contract', op: 'not_empty' }), {
      form_schema: FORM,
    });
    expect(def.version).toBe(1);
  });
});
