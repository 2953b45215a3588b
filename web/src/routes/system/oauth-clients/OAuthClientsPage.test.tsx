import { server, ok } from '../../../test/fakeServer';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App as AntApp } from 'antd';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import i18n from '../../../i18n';
import OAuthClientsPage from './OAuthClientsPage';

const CLIENT = {
  id: 4,
  client_id: 'c_0123abcd',
  name: 'Reports',
  redirect_uris: ['https://reports.example.com/cb'],
  grant_types: ['authorization_code'],
  public: false,
  access_token_format: 'opaque',
  token_rate_per_minute: 0,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
};
const FIRST = 'first-secret-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
const SECOND = 'second-secret-BBBBBBBBBBBBBBBBBBBBBBBBBBBB';

let client: QueryClient;

/** Everything the query client holds: every query's data and every mutation's state. */
const cached = () =>
  JSON.stringify([
    client
      .getQueryCache()
      .getAll()
      .map((q) => q.state.data),
    client
      .getMutationCache()
      .getAll()
      .map((m) => m.state),
  ]);

const click = async (name: string | RegExp) => {
  await act(async () => {
    fireEvent.click(screen.getByRole('button', { name }));
  });
};

beforeEach(async () => {
  await i18n.changeLanguage('en');
  server.calls = [];
  let listed: (typeof CLIENT)[] = [];
  server.answer = (method, path) => {
    if (method === 'GET' && path === '/api/v1/oauth2/clients')
      return ok({ list: listed, total: listed.length, page: 1, page_size: 10 });
    if (method === 'POST' && path === '/api/v1/oauth2/clients') {
      listed = [CLIENT];
      return ok({ ...CLIENT, client_secret: FIRST });
    }
    if (method === 'POST' && path === `/api/v1/oauth2/clients/${CLIENT.client_id}/secret`)
      return ok({ ...CLIENT, client_secret: SECOND });
    return undefined;
  };
  client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <AntApp>
        <MemoryRouter>
          <OAuthClientsPage />
        </MemoryRouter>
      </AntApp>
    </QueryClientProvider>,
  );
});
afterEach(() => cleanup());

// A dialog or two per test, rendered in happy-dom on a shared machine: more than 5 s at times.
describe('the OAuth2 clients page', { timeout: 20_000 }, () => {
  it('shows a new secret once, and keeps it in no cache', async () => {
    expect(await screen.findByText('No client is registered yet')).toBeTruthy();
    await click('New client');
    fireEvent.change(await screen.findByLabelText('Name'), { target: { value: 'Reports' } });
    fireEvent.change(screen.getByLabelText('Redirect URIs'), {
      target: { value: 'https://reports.example.com/cb' },
    });
    await click('Save');
    expect((await screen.findByTestId('client-secret')).textContent).toBe(FIRST);
    expect(screen.getByText('Copy the secret now: you will not see it again.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Copy the secret' })).toBeTruthy();
    // Shown, yet held by the dialog alone: the list is read again, not given the answer.
    await waitFor(() => expect(cached()).not.toContain(FIRST));
    // The list shows the client too, read again from the server.
    await waitFor(() => expect(screen.getAllByText('c_0123abcd')).toHaveLength(2));

    await click('I have copied it');
    await waitFor(() => expect(screen.queryByText(FIRST)).toBeNull());
    expect(cached()).not.toContain(FIRST);
  });

  it('rotates after a confirmation naming the client, and forgets the new secret once closed', async () => {
    server.answer = ((answer) => (method, path, query, body) => {
      if (method === 'GET' && path === '/api/v1/oauth2/clients')
        return ok({ list: [CLIENT], total: 1, page: 1, page_size: 10 });
      return answer(method, path, query, body);
    })(server.answer);
    await client.invalidateQueries();
    await screen.findByRole('button', { name: 'Rotate secret' });
    await click('Rotate secret');
    expect(await screen.findByText(/Rotate the secret of Reports\?/)).toBeTruthy();
    await click(/^Rotate$/);
    expect((await screen.findByTestId('client-secret')).textContent).toBe(SECOND);
    expect(cached()).not.toContain(SECOND);
    await click('I have copied it');
    await waitFor(() => expect(screen.queryByText(SECOND)).toBeNull());
  });
});
