import { describe, expect, it } from 'vitest';
import type { TimelineEntry } from '../../../api/bpm';
import { systemNote, timelinePeople, timelineWords } from './timelineWords';

const entry = (action: string, details: Record<string, unknown> | null, operator_id = 0) =>
  ({
    id: 1,
    node_id: 'lead',
    node_name: 'Lead',
    action,
    operator_id,
    operator_name: operator_id ? 'ann' : 'system',
    comment: null,
    round: 1,
    details,
    created_at: '2025-08-01T08:00:00Z',
  }) satisfies TimelineEntry;
const names: Record<number, string> = { 2: 'Bob', 3: 'Carol', 4: 'Dan' };
const nameOf = (id: number) => names[id] ?? `#${id}`;
const when = (v: string | number) => `<${String(v)}>`;
const words = (e: TimelineEntry) => timelineWords(e, nameOf, when);

describe('timeline words', () => {
  it('says who stands in for whom, and until when', () => {
    expect(
      words(entry('stand_in', { user_id: 2, stand_in_id: 3, until: '2025-08-14T18:00:00Z' })),
    ).toEqual({
      key: 'standIn',
      params: { user: 'Bob', standIn: 'Carol', until: '<2025-08-14T18:00:00Z>' },
    });
    expect(words(entry('stand_in', { user_id: 2, stand_in_id: 3 }))).toEqual({
      key: 'standInOpen',
      params: { user: 'Bob', standIn: 'Carol' },
    });
  });

  it('reads an escalation from one holder to the next, or to the top of the tree', () => {
    expect(words(entry('escalate', { from_user_id: 2, to_user_id: 4, level: 2 }))).toEqual({
      key: 'escalate',
      params: { from: 'Bob', to: 'Dan', level: 2 },
    });
    expect(words(entry('escalate', { from_user_id: 2, to_user_id: 4 }))?.key).toBe('escalatePlain');
    expect(
      words(entry('escalate', { from_user_id: 2, to_user_id: 3, on_behalf_of_id: 4, level: 1 })),
    ).toEqual({
      key: 'escalateStandIn',
      params: { from: 'Bob', to: 'Carol', leader: 'Dan', level: 1 },
    });
    expect(words(entry('escalate', { from_user_id: 4, to_user_id: null, level: 3 }))).toEqual({
      key: 'escalateTop',
      params: { from: 'Dan' },
    });
  });

  it('counts reminders, and explains the system canceling an unresubmitted request', () => {
    expect(words(entry('remind', { count: 3 }))).toEqual({ key: 'remind', params: { count: 3 } });
    expect(words(entry('remind', null))).toBeNull();
    expect(words(entry('cancel', null))?.key).toBe('resubmitTimedOut');
    expect(words(entry('cancel', null, 7))).toBeNull();
  });

  it('names whom a task went to, and leaves other entries alone', () => {
    expect(words(entry('transfer', { task_id: 9, to_user_id: 3 }, 2))).toEqual({
      key: 'handedTo',
      params: { to: 'Carol' },
    });
    expect(words(entry('reassign', { from_user_id: 2, to_user_id: 5 }, 1))).toEqual({
      key: 'fromTo',
      params: { from: 'Bob', to: '#5' },
    });
    expect(words(entry('approve', null, 2))).toBeNull();
  });

  it('collects the people the details name, each once', () => {
    expect(
      timelinePeople([
        entry('stand_in', { user_id: 2, stand_in_id: 3, until: 'x' }),
        entry('escalate', { from_user_id: 3, to_user_id: 4, level: 1 }),
        entry('remind', { count: 1 }),
        entry('edit', { changes: [] }),
      ]).sort(),
    ).toEqual([2, 3, 4]);
  });

  it("knows the notes the system writes, and leaves people's comments as they are", () => {
    const noted = (comment: string, operator = 0) => ({
      ...entry('remind', null, operator),
      comment,
    });
    expect(systemNote(noted('timeout'))).toBe('timeout');
    expect(systemNote(noted('top of the tree'))).toBe('topOfTree');
    expect(systemNote(noted('timeout: nobody above to escalate to'))).toBe('nobodyAbove');
    expect(systemNote(noted('timeout', 7))).toBeNull();
    expect(systemNote(noted('something new'))).toBeNull();
  });
});
