import { ok, server } from '../../../test/fakeServer';
import { aMe } from '../../../test/me';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import type { FileInfo, InstanceDetail } from '../../../api/bpm';
import { saveTokens } from '../../../api/session';
import { AuthProvider } from '../../../auth/AuthContext';
import i18n from '../../../i18n';
import { InstanceView } from './InstanceView';

// The route diagram draws with a canvas library happy-dom cannot lay out; its data still loads.
vi.mock('../../../diagram/RouteDiagram', () => ({ RouteDiagram: () => null }));

const quote: FileInfo = {
  id: 7,
  name: 'quote.pdf',
  size: 1536,
  content_type: 'application/pdf',
  uploaded_by: 1,
  url: '/uploads/k7?expires=1&sig=1',
  expires_at: new Date(Date.now() + 600_000).toISOString(),
};
const schema = {
  fields: [{ key: 'att', label: 'Attachments', type: 'file', required: true, maxCount: 2 }],
};
const instance: InstanceDetail = {
  id: 40,
  title: 'Quote for the fair',
  definition_id: 3,
  definition_key: 'fair',
  definition_version: 1,
  status: 'running',
  initiator_id: 1,
  initiator_name: 'alice',
  form: { att: [7] },
  tasks: [],
  current_node_ids: ['review'],
  path: ['start', 'review'],
  actions: ['approve', 'reject'],
  suspend_reason: null,
  created_at: '2026-11-26T08:00:00Z',
  finished_at: null,
  files: { att: [quote] },
};
const tree = {
  id: 'start',
  type: 'start',
  name: 'Start',
  child: { id: 'review', type: 'approval', name: 'Review', editableFields: ['att'], child: null },
};

let releaseDiagram: () => void = () => {};

beforeEach(async () => {
  await i18n.changeLanguage('en');
  saveTokens({ access_token: 'a', refresh_token: 'r' });
  const diagramHeld = new Promise<void>((resolve) => (releaseDiagram = resolve));
  server.calls = [];
  server.answer = async (_method, path) => {
    if (path === '/api/v1/me') return ok(aMe());
    if (path === '/api/v1/bpm/startable')
      return ok({ list: [{ id: 3, key: 'fair', name: 'Fair', form_schema: schema }], total: 1 });
    if (path === '/api/v1/bpm/instances/40/timeline') return ok([]);
    if (path === '/api/v1/bpm/instances/40/diagram') {
      await diagramHeld;
      return ok({ tree, path: instance.path, status: 'running', form: instance.form });
    }
    return undefined;
  };
});
afterEach(() => {
  cleanup();
  saveTokens(null);
});

it('holds the approval until the node’s editable fields are known, then opens it with the initiator’s files', async () => {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <AuthProvider>
        <InstanceView
          instance={instance}
          actions={instance.actions}
          taskId={90}
          taskNodeId="review"
          refetch={() => {}}
        />
      </AuthProvider>
    </QueryClientProvider>,
  );
  const approve = await screen.findByTestId('action-approve');
  // The schema has come, the diagram (which names the editable fields) has not: the button waits.
  await waitFor(() =>
    expect(server.calls.some((c) => c.path === '/api/v1/bpm/startable')).toBe(true),
  );
  expect((approve as HTMLButtonElement).disabled).toBe(true);

  await act(async () => releaseDiagram());
  await waitFor(() => expect((approve as HTMLButtonElement).disabled).toBe(false));
  fireEvent.click(approve);
  const dialog = await screen.findByRole('dialog');
  expect(within(dialog).getByText('quote.pdf')).toBeTruthy();
});
