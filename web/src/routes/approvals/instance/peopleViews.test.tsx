import { ok, server } from '../../../test/fakeServer';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, render, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TimelineEntry } from '../../../api/bpm';
import i18n from '../../../i18n';
import { FormValues } from './FormValues';
import { Timeline } from './Timeline';

const PEOPLE = [
  { id: 2, name: 'Bob', dept_id: 5, dept_name: 'Sales', active: true },
  { id: 3, name: 'Carol', dept_id: 5, dept_name: 'Sales', active: true },
  { id: 4, name: 'Dan', dept_id: 1, dept_name: 'Board', active: false },
];
const DEPTS = [
  { id: 1, name: 'Board', parent_id: null },
  { id: 5, name: 'Sales', parent_id: 1 },
];

const entry = (id: number, action: string, details: unknown, comment: string | null = null) =>
  ({
    id,
    node_id: 'lead',
    node_name: 'Lead',
    action,
    operator_id: 0,
    operator_name: 'system',
    comment,
    round: 1,
    details: details as Record<string, unknown>,
    created_at: '2025-08-01T08:00:00Z',
  }) satisfies TimelineEntry;

function mount(children: ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(<QueryClientProvider client={client}>{children}</QueryClientProvider>);
}

beforeEach(async () => {
  await i18n.changeLanguage('en');
  server.calls = [];
  server.answer = (_method, path, query) => {
    if (path === '/api/v1/bpm/directory/departments') return ok(DEPTS);
    if (path !== '/api/v1/bpm/directory/users') return undefined;
    const ids = query.get('ids')?.split(',') ?? [];
    return ok(PEOPLE.filter((p) => ids.includes(String(p.id))));
  };
});
afterEach(cleanup);

const entries = [
  entry(1, 'stand_in', { user_id: 2, stand_in_id: 3, until: '2025-08-14T18:00:00Z' }),
  entry(2, 'remind', { count: 2 }),
  entry(3, 'escalate', { from_user_id: 3, to_user_id: 4, level: 1 }),
  entry(4, 'escalate', { from_user_id: 4, to_user_id: null, level: 2 }, 'top of the tree'),
  entry(5, 'cancel', null, 'timeout'),
];

describe('the timeline in words', () => {
  it('names who stood in, who a step was escalated to, and the system’s timeouts', async () => {
    mount(<Timeline entries={entries} />);
    const standIn = await screen.findByText(/Bob is out of office until .*; Carol acts/);
    expect(standIn.textContent).toContain('Aug');
    expect(screen.getByText('Reminder #2')).toBeTruthy();
    expect(screen.getByText('Passed up from Carol to Dan (inactive) (level 1)')).toBeTruthy();
    expect(
      screen.getByText('Top of the tree: there is nobody above Dan (inactive) to pass it to'),
    ).toBeTruthy();
    expect(screen.getByText('Not resubmitted in time: canceled by the system')).toBeTruthy();
    // The system's fixed notes read as words, not as quoted comments.
    expect(screen.getByText('The time limit was reached')).toBeTruthy();
    expect(screen.queryByText(/“timeout”|“top of the tree”/)).toBeNull();
    const headed = (text: string) => (_: string, el: Element | null) =>
      el?.tagName === 'SPAN' && el.textContent === text;
    expect(screen.getAllByText(headed('Escalated · Lead · System'))).toHaveLength(2);
    // One look-up for every person the details name.
    const lookups = server.calls.filter((c) => c.query.has('ids'));
    expect(lookups).toHaveLength(1);
    expect(lookups[0]!.query.get('ids')!.split(',').sort()).toEqual(['2', '3', '4']);
  });

  it('reads in Chinese too', async () => {
    await i18n.changeLanguage('zh-CN');
    mount(<Timeline entries={entries} />);
    expect(await screen.findByText(/Bob 不在岗（至 .*），由 Carol 代为处理/)).toBeTruthy();
    expect(screen.getByText('超时上报：由 Carol 转给 Dan（已停用）（第 1 级）')).toBeTruthy();
    expect(screen.getByText('第 2 次提醒')).toBeTruthy();
    expect(screen.getByText('未按时重新提交：系统已撤回')).toBeTruthy();
    expect(screen.getByText('已超过处理时限')).toBeTruthy();
  });
});

describe('form values', () => {
  it('show person and department fields by name', async () => {
    mount(
      <FormValues
        form={{ manager: 2, dept: 5, ghost: 99 }}
        schema={{
          fields: [
            { key: 'manager', label: 'Manager', type: 'user' },
            { key: 'dept', label: 'Department', type: 'dept' },
            { key: 'ghost', label: 'Nobody', type: 'user' },
          ],
        }}
      />,
    );
    expect(await screen.findByText('Bob')).toBeTruthy();
    expect(await screen.findByText('Sales')).toBeTruthy();
    expect(await screen.findByText('user #99')).toBeTruthy();
    await act(async () => {
      await i18n.changeLanguage('zh-CN');
    });
    expect(screen.getByText('用户 #99')).toBeTruthy();
  });
});
