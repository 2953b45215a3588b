import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import '../i18n';
import i18n from '../i18n';
import { ServerTable } from './ServerTable';

interface Row {
  id: number;
  title: string;
  node: string;
}

afterEach(cleanup);

function setup() {
  const calls: Array<Record<string, unknown>> = [];
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <ServerTable<Row, object, 'title'>
        title="List"
        queryKey={`sort-test-${Math.random()}`}
        filters={{}}
        fetch={async (query) => {
          calls.push({ ...query });
          // 25 rows in all, so the table has three pages to move through.
          return { list: [{ id: 1, title: 'a', node: 'n' }], total: 25, page: 1, page_size: 10 };
        }}
        rowKey="id"
        columns={[
          { title: 'Title', dataIndex: 'title', key: 'title', sorter: true },
          { title: 'Node', dataIndex: 'node' },
        ]}
      />
    </QueryClientProvider>,
  );
  return calls;
}

const titleHeader = () => screen.getByRole('columnheader', { name: /Title/ });
const last = (calls: Array<Record<string, unknown>>) => calls[calls.length - 1];

describe('ServerTable sorting', () => {
  it('sends sort/order to the server on a header click and goes back to page 1', async () => {
    await i18n.changeLanguage('en');
    const calls = setup();
    await waitFor(() => expect(last(calls)).toEqual({ page: 1, page_size: 10 }));

    fireEvent.click(await screen.findByTitle('2'));
    await waitFor(() => expect(last(calls)).toEqual({ page: 2, page_size: 10 }));

    fireEvent.click(titleHeader());
    await waitFor(() =>
      expect(last(calls)).toEqual({ sort: 'title', order: 'asc', page: 1, page_size: 10 }),
    );
    fireEvent.click(titleHeader());
    await waitFor(() =>
      expect(last(calls)).toEqual({ sort: 'title', order: 'desc', page: 1, page_size: 10 }),
    );
    // A third click clears the order: the server's default again.
    fireEvent.click(titleHeader());
    await waitFor(() => expect(last(calls)).toEqual({ page: 1, page_size: 10 }));
  });
});
