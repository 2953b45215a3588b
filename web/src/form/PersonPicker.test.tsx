import { ok, server } from '../test/fakeServer';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Button, Form } from 'antd';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import i18n from '../i18n';
import { FormRenderer } from './FormRenderer';
import { PersonPicker } from './PersonPicker';

const PEOPLE = [
  { id: 2, name: 'Bob', dept_id: 5, dept_name: 'Sales', active: true },
  { id: 3, name: 'Carol', dept_id: 5, dept_name: 'Sales', active: true },
  { id: 4, name: 'Dan', dept_id: null, dept_name: null, active: false },
];

function mount(props: Parameters<typeof PersonPicker>[0]) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <PersonPicker aria-label="Person" {...props} />
    </QueryClientProvider>,
  );
}

beforeEach(async () => {
  await i18n.changeLanguage('en');
  server.calls = [];
  server.answer = (method, path, query) => {
    if (method !== 'GET' || path !== '/api/v1/bpm/directory/users') return undefined;
    const ids = query.get('ids');
    if (ids) return ok(PEOPLE.filter((p) => ids.split(',').includes(String(p.id))));
    const keyword = (query.get('keyword') ?? '').toLowerCase();
    return ok(PEOPLE.filter((p) => p.active && p.name.toLowerCase().includes(keyword)));
  };
});
afterEach(cleanup);

describe('PersonPicker', () => {
  it('shows chosen ids as names, looked up together in one call, inactive people marked', async () => {
    mount({ value: [2, 4], multiple: true });
    expect(await screen.findByText('Bob')).toBeTruthy();
    expect(await screen.findByText('Dan (inactive)')).toBeTruthy();
    const lookups = server.calls.filter((c) => c.query.has('ids'));
    expect(lookups.map((c) => c.query.get('ids'))).toEqual(['2,4']);
  });

  it('searches the directory by what is typed and answers the id picked', async () => {
    const picked: unknown[] = [];
    mount({ onChange: (v: never) => picked.push(v), exclude: [2] });
    const box = screen.getByRole('combobox', { name: 'Person' });
    await act(async () => {
      fireEvent.mouseDown(box);
      fireEvent.change(box, { target: { value: 'o' } });
    });
    // Bob matches too, but is excluded (the caller, say); only Carol is offered.
    const option = await screen.findByText('Carol', {}, { timeout: 3000 });
    expect(screen.queryByTitle('Bob')).toBeNull();
    const searches = server.calls.filter((c) => c.query.get('keyword') === 'o');
    expect(searches).toHaveLength(1);
    await act(async () => {
      fireEvent.click(option);
    });
    expect(picked).toEqual([3]);
  });

  it("is the form renderer's control for a Person field, validated by the engine's rules", async () => {
    const submitted: unknown[] = [];
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const { container } = render(
      <QueryClientProvider client={client}>
        <Form onFinish={(v) => submitted.push(v)}>
          <FormRenderer
            schema={{
              fields: [{ key: 'manager', label: 'Manager', type: 'user', required: true }],
            }}
          />
          <Button htmlType="submit">go</Button>
        </Form>
      </QueryClientProvider>,
    );
    await act(async () => {
      fireEvent.submit(container.querySelector('form')!);
    });
    expect(await screen.findByText('Manager is required')).toBeTruthy();
    const box = screen.getByLabelText('Manager');
    await act(async () => {
      fireEvent.mouseDown(box);
      fireEvent.change(box, { target: { value: 'car' } });
    });
    const carol = await screen.findByText('Carol', {}, { timeout: 3000 });
    await act(async () => {
      fireEvent.click(carol);
    });
    await act(async () => {
      fireEvent.submit(container.querySelector('form')!);
    });
    await waitFor(() => expect(submitted).toEqual([{ manager: 3 }]));
  });
});
