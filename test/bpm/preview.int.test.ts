import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from '../helpers/platform.js';
import { createDefinition, createUserWith, flowHelpers, singleApproval } from './fixtures.js';

let platform: TestPlatform;
let admin: string;

beforeAll(async () => {
  platform = await startTestPlatform();
  admin = await platform.adminToken();
});
afterAll(async () => {
  await platform?.close();
});

const FORM = { reason: 'trip', days: 2 };

describe('the start form’s route preview', () => {
  it('needs no designer’s code: any starter sees the route their own request would take', async () => {
    const { publish } = flowHelpers(platform, () => admin);
    const [starter, approver] = [
      await createUserWith(platform, []),
      await createUserWith(platform, []),
    ];
    const def = await publish(singleApproval([approver.id]));
    const preview = await platform.call('POST', `/api/v1/bpm/definitions/${def.id}/preview`, {
      token: starter.token,
      body: { form: FORM },
    });
    expect(preview.status).toBe(200);
    expect(preview.body.data.path).toEqual(['start', 'approve']);
    expect(preview.body.data.nodes[0]).toMatchObject({
      node_id: 'approve',
      assignees: [approver.id],
    });
    // The designer's dry run still needs the code; the preview wrote nothing.
    const simulate = await platform.call('POST', `/api/v1/bpm/definitions/${def.id}/simulate`, {
      token: starter.token,
      body: { form: FORM },
    });
    expect(simulate.status).toBe(403);
    const mine = await platform.call('GET', '/api/v1/bpm/instances/my', { token: starter.token });
    expect(mine.body.data.total).toBe(0);
  });

  it('is refused for a definition the caller may not start, a draft, or as someone else', async () => {
    const { publish } = flowHelpers(platform, () => admin);
    const [outsider, allowed, approver] = [
      await createUserWith(platform, []),
      await createUserWith(platform, []),
      await createUserWith(platform, []),
    ];
    const restricted = await publish(singleApproval([approver.id]), {
      starters: { user_ids: [allowed.id] },
    });
    const call = (id: number, token: string, body: Record<string, unknown> = { form: FORM }) =>
      platform.call('POST', `/api/v1/bpm/definitions/${id}/preview`, { token, body });
    const refused = await call(restricted.id, outsider.token);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe(40301);
    expect((await call(restricted.id, allowed.token)).status).toBe(200);

    const draft = await createDefinition(platform, admin, {
      node_tree: singleApproval([approver.id]),
    });
    expect(draft.status).toBe(200);
    const unpublished = await call(draft.body.data.id, allowed.token);
    expect(unpublished.status).toBe(404);
    expect((await call(999_999_999, allowed.token)).status).toBe(404);

    // Always as the caller: naming another initiator is a validation error, not a way around.
    const asOther = await call(restricted.id, outsider.token, {
      form: FORM,
      initiator_id: allowed.id,
    });
    expect(asOther.status).toBe(400);
    expect(asOther.body.code).toBe(40001);
  });
});
