import '../../../test/fakeServer';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { FileInfo, FormSchema } from '../../../api/bpm';
import i18n from '../../../i18n';
import { FormValues } from './FormValues';

const schema: FormSchema = {
  fields: [
    { key: 'att', label: 'Attachments', type: 'file', maxCount: 3 },
    { key: 'extra', label: 'Extra', type: 'file' },
  ],
};
const file = (id: number, name: string, expiresIn: number): FileInfo => ({
  id,
  name,
  size: 1536,
  content_type: 'application/pdf',
  uploaded_by: 1,
  url: `/uploads/k${id}?expires=1&sig=${expiresIn}`,
  expires_at: new Date(Date.now() + expiresIn).toISOString(),
});

function mount(
  files: Record<string, FileInfo[]>,
  refresh?: () => Promise<Record<string, FileInfo[]>>,
) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <FormValues
        form={{ att: [1, 2], extra: [] }}
        schema={schema}
        files={files}
        refreshFiles={refresh}
      />
    </QueryClientProvider>,
  );
}

beforeEach(async () => {
  await i18n.changeLanguage('en');
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('file fields read', () => {
  it('list each file as a download link in a new tab, with its size and type; none says so', async () => {
    mount({ att: [file(1, 'quote.pdf', 300_000), file(2, 'plan.pdf', 300_000)] });
    const link = screen.getByRole('link', { name: 'Download quote.pdf' });
    expect(link.getAttribute('href')).toBe('/uploads/k1?expires=1&sig=300000');
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')).toContain('noopener');
    expect(link.textContent).toBe('quote.pdf');
    expect(screen.getAllByText('1.5 KB · application/pdf')).toHaveLength(2);
    expect(screen.getByText('No files')).toBeTruthy();
    await act(async () => {
      await i18n.changeLanguage('zh-CN');
    });
    expect(screen.getByText('无文件')).toBeTruthy();
    expect(screen.getByRole('link', { name: '下载 quote.pdf' })).toBeTruthy();
  });

  it('renews a link that may have expired before opening it, and says when it cannot', async () => {
    const opened = vi.spyOn(window, 'open').mockImplementation(() => null);
    const refresh = vi.fn(async () => ({ att: [file(1, 'quote.pdf', 300_000)] }));
    mount({ att: [file(1, 'quote.pdf', 1_000), file(2, 'plan.pdf', 1_000)] }, refresh);
    await act(async () => {
      fireEvent.click(screen.getByRole('link', { name: 'Download quote.pdf' }));
    });
    await waitFor(() =>
      expect(opened).toHaveBeenCalledWith(
        '/uploads/k1?expires=1&sig=300000',
        '_blank',
        'noopener,noreferrer',
      ),
    );
    // The second file is gone from the fresh answer (deleted since): said, not opened.
    await act(async () => {
      fireEvent.click(screen.getByRole('link', { name: 'Download plan.pdf' }));
    });
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The link could not be renewed: the file is no longer available',
    );
    expect(refresh).toHaveBeenCalledTimes(2);
    expect(opened).toHaveBeenCalledTimes(1);
  });
});
