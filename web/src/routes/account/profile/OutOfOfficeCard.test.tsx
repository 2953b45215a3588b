import { ok, server } from '../../../test/fakeServer';
import { aMe } from '../../../test/me';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { App as AntApp } from 'antd';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { saveTokens } from '../../../api/session';
import { AuthProvider } from '../../../auth/AuthContext';
import i18n from '../../../i18n';
import { OutOfOfficeCard } from './OutOfOfficeCard';

const ME = aMe();
const PEOPLE = [
  { id: 2, name: 'Bob', dept_id: null, dept_name: null, active: true },
  { id: 3, name: 'Carol', dept_id: 5, dept_name: 'Sales', active: true },
];
const LEAVE = {
  id: 9,
  key: 'leave',
  name: 'Leave request',
  version: 1,
  form_schema: { fields: [] },
};

let stored: Record<string, unknown> | null;

function mount() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <AntApp>
        <AuthProvider>
          <OutOfOfficeCard />
        </AuthProvider>
      </AntApp>
    </QueryClientProvider>,
  );
}

beforeEach(async () => {
  await i18n.changeLanguage('en');
  saveTokens({ access_token: 'a', refresh_token: 'r' });
  stored = null;
  server.calls = [];
  server.answer = (method, path, query, body) => {
    if (path === '/api/v1/me') return ok(ME);
    if (path === '/api/v1/bpm/startable') return ok({ list: [LEAVE], total: 1, page: 1 });
    if (path === '/api/v1/bpm/directory/users') {
      const ids = query.get('ids')?.split(',');
      const keyword = (query.get('keyword') ?? '').toLowerCase();
      return ok(
        PEOPLE.filter((p) =>
          ids ? ids.includes(String(p.id)) : p.name.toLowerCase().includes(keyword),
        ),
      );
    }
    if (path !== '/api/v1/bpm/out-of-office') return undefined;
    if (method === 'GET') return ok(stored);
    if (method === 'DELETE') {
      stored = null;
      return ok(null);
    }
    stored = { ...(body as object), user_id: 2, definition_keys: null, comment: null };
    stored.active = true;
    stored.updated_by = 2;
    stored.updated_at = new Date().toISOString();
    return ok({ ...stored, moved: 2 });
  };
});
afterEach(() => {
  cleanup();
  localStorage.clear();
});

describe('out of office in the profile', () => {
  it('is set with a stand-in found by name, says how many tasks moved and that it is active', async () => {
    mount();
    expect(await screen.findByText('You are not marked as out of office.')).toBeTruthy();
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Set out of office' }));
    });
    const standIn = await screen.findByLabelText('Stand-in');
    await act(async () => {
      fireEvent.mouseDown(standIn);
      fireEvent.change(standIn, { target: { value: 'car' } });
    });
    const carol = await screen.findByText('Carol', {}, { timeout: 3000 });
    // The caller is not offered as their own stand-in.
    expect(screen.queryByTitle('Bob')).toBeNull();
    await act(async () => {
      fireEvent.click(carol);
    });
    await act(async () => {
      fireEvent.click(screen.getByRole('switch', { name: 'Also move my open tasks' }));
    });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    });

    expect(
      await screen.findByText('Saved. 2 open tasks were moved to your stand-in.'),
    ).toBeTruthy();
    expect(screen.getByTestId('out-of-office-state').textContent).toBe('Active now');
    expect(within(screen.getByTestId('out-of-office-view')).getByText('Carol')).toBeTruthy();
    expect(screen.getByText('Every flow')).toBeTruthy();
    const put = server.calls.find((c) => c.method === 'PUT')!;
    const body = put.body as Record<string, unknown>;
    expect(body).toMatchObject({ stand_in_id: 3, move_pending: true });
    expect(Date.parse(body.to as string)).toBeGreaterThan(Date.parse(body.from as string));
    expect('definition_keys' in body).toBe(false);
    expect(put.headers.get('idempotency-key')).toMatch(/^[0-9a-f-]{36}$/);

    await act(async () => {
      await i18n.changeLanguage('zh-CN');
    });
    expect(screen.getByTestId('out-of-office-state').textContent).toBe('生效中');
  });

  it('is cleared after a confirmation', async () => {
    stored = {
      user_id: 2,
      stand_in_id: 3,
      from: '2025-01-01T00:00:00Z',
      to: '2099-01-01T00:00:00Z',
      definition_keys: ['leave'],
      move_pending: false,
      comment: 'Holiday',
      active: true,
      updated_by: 2,
      updated_at: '2025-01-01T00:00:00Z',
    };
    mount();
    expect(await screen.findByText('Leave request')).toBeTruthy();
    expect(screen.getByText('Holiday')).toBeTruthy();
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Clear' }));
    });
    const confirm = await screen.findByRole('tooltip');
    await act(async () => {
      fireEvent.click(within(confirm).getByRole('button', { name: 'Clear' }));
    });
    expect(await screen.findByText('You are not marked as out of office.')).toBeTruthy();
    expect(server.calls.filter((c) => c.method === 'DELETE')).toHaveLength(1);
  });
});
