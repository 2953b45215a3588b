import { describe, expect, it } from 'vitest';
import type { Effect } from '../engine/index.js';
import { planEffects } from './effects.repo.js';
import type { InstanceRow } from './state.repo.js';

const instance = (bizType = 'flow:leave') =>
  ({
    id: 9,
    tenant_id: 1,
    title: 'Leave',
    biz_type: bizType,
    biz_id: 'b-1',
    definition_key: 'leave',
    definition_version: 2,
  }) as InstanceRow;
const operator = { id: 5, name: 'ann' };
const both = { enabled: true, inbox: true };

describe('planEffects', () => {
  it('names the system on its own entries and the operator on theirs', () => {
    const entry = (operatorId: number): Effect => ({
      type: 'log',
      entry: { nodeId: 'n', nodeName: 'N', action: 'approve', operatorId, comment: null, round: 1 },
    });
    const { logs } = planEffects(instance(), [entry(5), entry(0)], operator, both, new Set());
    expect(logs.map((l) => [l.operator_id, l.operator_name])).toEqual([
      [5, 'ann'],
      [0, 'system'],
    ]);
  });

  it('sends no CC notice to someone whose copy of this round existed already', () => {
    const cc: Effect = { type: 'notify', kind: 'cc', userIds: [7, 8], nodeId: 'copy' };
    const { notices } = planEffects(instance(), [cc], operator, both, new Set(['copy:7']));
    expect(notices.map((n) => [n.kind, n.payload.user_ids])).toEqual([
      ['inbox', [8]],
      ['notification', [8]],
    ]);
    expect(
      planEffects(instance(), [cc], operator, both, new Set(['copy:7', 'copy:8'])).notices,
    ).toEqual([]);
  });

  it('enqueues inbox copies and notifications only where they go', () => {
    const todo: Effect = { type: 'notify', kind: 'todo', userIds: [7], nodeId: 'n' };
    const kinds = (notify: { enabled: boolean; inbox?: boolean }) =>
      planEffects(instance(), [todo], operator, notify, new Set()).notices.map((n) => n.kind);
    expect(kinds({ enabled: false })).toEqual([]);
    expect(kinds({ enabled: false, inbox: true })).toEqual(['inbox']);
    expect(kinds({ enabled: true })).toEqual(['notification']);
  });

  it('plans the callback of a business instance where its terminal effect is, to be stamped', () => {
    const effects: Effect[] = [
      { type: 'terminal', status: 'approved' },
      { type: 'notify', kind: 'terminal', userIds: [3], nodeId: null },
    ];
    const { notices } = planEffects(instance('order'), effects, operator, both, new Set());
    expect(notices.map((n) => [n.kind, n.stamp_finished_at])).toEqual([
      ['callback', true],
      ['inbox', false],
      ['notification', false],
    ]);
    expect(notices[0]).toMatchObject({
      target: 'order',
      payload: { event: 'bpm.instance.finished', status: 'approved', biz_id: 'b-1' },
    });
    expect(notices[0]!.payload.event_id).toBe(notices[0]!.event_id);
    expect(planEffects(instance(), effects, operator, both, new Set()).notices).toHaveLength(2);
  });
});
