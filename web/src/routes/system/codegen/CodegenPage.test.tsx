import { server, ok } from '../../../test/fakeServer';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App as AntApp } from 'antd';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import i18n from '../../../i18n';
import { saveTokens } from '../../../api/session';
import { AuthProvider } from '../../../auth/AuthContext';
import CodegenPage from './CodegenPage';

const me = (permissions: string[]) => ({
  id: 1,
  username: 'admin',
  nickname: 'Administrator',
  tenant_id: 1,
  dept_id: null,
  roles: [],
  permissions,
  is_platform_admin: true,
  must_change_password: false,
});
const fail = (status: number, code: number, message: string, data: unknown = null) => ({
  status,
  body: { code, message, data },
});
const FILES = [
  { path: 'src/services/crm/index.ts', content: 'export const crmModule = {};\n' },
  { path: 'migrations/0042_crm_customers.sql', content: 'CREATE TABLE crm_customers (\n);\n' },
];

function mount() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <AntApp>
        <AuthProvider>
          <CodegenPage />
        </AuthProvider>
      </AntApp>
    </QueryClientProvider>,
  );
}

/** Answers the status, the preview and the write as a server with writing `on`. */
function answering(permissions: string[], on = true) {
  server.answer = (method, path, _query, body) => {
    if (path === '/api/v1/me') return ok(me(permissions));
    if (path === '/api/v1/codegen/status')
      return ok({ write_enabled: on, directory: on ? '/srv/approva' : null });
    const spec = body as { columns: { name: string }[] };
    if (path === '/api/v1/codegen/preview' && spec.columns[0]?.name === 'Bad')
      return fail(400, 40001, 'validation failed', {
        fields: [{ field: 'columns.0.name', rule: 'format', message: 'snake_case, from a letter' }],
      });
    if (path === '/api/v1/codegen/preview') return ok({ files: FILES });
    if (path === '/api/v1/codegen/write')
      return ok({ directory: '/srv/approva', paths: FILES.map((f) => f.path) });
    return undefined;
  };
}

const type = (label: string, value: string) =>
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
const click = async (name: string | RegExp) => {
  await act(async () => {
    fireEvent.click(screen.getByRole('button', { name }));
  });
};

beforeEach(async () => {
  await i18n.changeLanguage('en');
  server.calls = [];
  saveTokens({ access_token: 'a', refresh_token: 'r' });
});
afterEach(() => {
  cleanup();
  localStorage.clear();
});

// A form, a preview and a dialog rendered in happy-dom on a shared machine: more than 5 s at times.
describe('the code generator page', { timeout: 20_000 }, () => {
  it('previews, then writes after a confirmation naming the directory and every path', async () => {
    answering(['*']);
    mount();
    await screen.findByLabelText('Service');
    type('Service', 'crm');
    type('Entity', 'customer');
    await click('Preview');
    expect(await screen.findByText('Generated files (2)')).toBeTruthy();
    expect(screen.getByTestId('generated-code').textContent).toContain('crmModule');
    await click(/migrations\/0042_crm_customers\.sql/);
    expect(screen.getByTestId('generated-code').textContent).toContain('CREATE TABLE');

    await waitFor(() =>
      expect(screen.getByTestId('codegen-write').hasAttribute('disabled')).toBe(false),
    );
    await click('Write into the project');
    expect(await screen.findAllByText('Write 2 files into /srv/approva?')).not.toHaveLength(0);
    const listed = screen.getByTestId('write-paths').textContent;
    for (const f of FILES) expect(listed).toContain(f.path);
    await click(/^Write$/);
    expect(await screen.findByTestId('codegen-written')).toBeTruthy();
    const writes = server.calls.filter((c) => c.path === '/api/v1/codegen/write');
    expect(writes.map((c) => c.body)).toEqual([
      {
        service: 'crm',
        entity: 'customer',
        columns: [{ name: 'name', type: 'string', required: true, searchable: true }],
      },
    ]);
  });

  it('asks for a new preview before a write once the description changed', async () => {
    answering(['*']);
    mount();
    await screen.findByLabelText('Service');
    type('Service', 'crm');
    type('Entity', 'customer');
    await click('Preview');
    await screen.findByText('Generated files (2)');
    type('Entity', 'client');
    expect(await screen.findByText(/The description has changed since this preview/)).toBeTruthy();
    expect(screen.getByTestId('codegen-write').hasAttribute('disabled')).toBe(true);
  });

  it("puts the server's problem on the column it names", async () => {
    answering(['*']);
    mount();
    await screen.findByLabelText('Service');
    type('Service', 'crm');
    type('Entity', 'customer');
    fireEvent.change(document.getElementById('columns_0_name')!, { target: { value: 'Bad' } });
    await click('Preview');
    const column = screen.getByTestId('column-0');
    await waitFor(() => expect(column.textContent).toContain('snake_case, from a letter'));
    expect(screen.queryByText(/Generated files/)).toBeNull();
  });

  it('offers no write without the code, and says why; nor where the server has writing off', async () => {
    answering(['system:codegen:preview']);
    mount();
    expect(await screen.findByText(/needs the permission system:codegen:write/)).toBeTruthy();
    expect(screen.queryByTestId('codegen-write')).toBeNull();
    cleanup();
    answering(['*'], false);
    mount();
    expect(await screen.findByTestId('codegen-write-off')).toBeTruthy();
    expect(screen.queryByTestId('codegen-write')).toBeNull();
  });

  it('says the generator is not available when its routes are not there', async () => {
    server.answer = (_m, path) => (path === '/api/v1/me' ? ok(me(['*'])) : undefined);
    mount();
    expect(
      await screen.findByText('The code generator is not available on this server'),
    ).toBeTruthy();
    expect(screen.queryByLabelText('Service')).toBeNull();
  });
});
