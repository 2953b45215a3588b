import { server, ok } from '../test/fakeServer';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Button, Form } from 'antd';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import '../i18n';
import i18n from '../i18n';
import type { FileInfo, FormSchema } from '../api/bpm';
import { formatSize, isAccepted } from '../api/files';
import { readTokens, saveTokens } from '../api/session';
import { FormRenderer } from './FormRenderer';

/** What the fake files service answers an upload, and the uploads it saw. */
interface Sent {
  headers: Record<string, string>;
  file: File;
}
let sent: Sent[] = [];
let delay = 5;
let answer: (n: number) => { status: number; body: unknown } = () => ({ status: 500, body: null });

/** An XMLHttpRequest that reports progress and answers `answer(n)` for the n-th upload. */
class FakeXhr {
  status = 0;
  statusText = '';
  responseText = '';
  upload: { onprogress: ((e: ProgressEvent) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  private headers: Record<string, string> = {};
  open() {}
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  getResponseHeader(): string | null {
    return null;
  }
  abort() {
    this.onabort?.();
  }
  send(body: FormData) {
    const n = sent.length;
    sent.push({ headers: this.headers, file: body.get('file') as File });
    setTimeout(() => {
      this.upload.onprogress?.({ lengthComputable: true, loaded: 5, total: 10 } as ProgressEvent);
      const a = answer(n);
      this.status = a.status;
      this.responseText = JSON.stringify(a.body);
      this.onload?.();
    }, delay);
  }
}

const uploaded = (id: number, name: string) =>
  ok({
    id,
    name,
    size: 10,
    content_type: 'application/pdf',
    uploaded_by: 1,
    created_at: '2026-01-01T00:00:00Z',
    url: `/uploads/k${id}?expires=1&sig=x`,
    expires_at: '2026-01-01T00:05:00Z',
  });

const schema: FormSchema = {
  fields: [
    {
      key: 'att',
      label: 'Attachments',
      type: 'file',
      required: true,
      maxCount: 2,
      accept: ['application/pdf'],
    },
  ],
};

function Harness({
  onFinish,
  initial = {},
  files,
}: {
  onFinish: (v: unknown) => void;
  initial?: Record<string, unknown>;
  files?: Record<string, FileInfo[]>;
}) {
  return (
    <Form onFinish={onFinish} initialValues={initial}>
      <FormRenderer schema={schema} files={files} />
      <Button htmlType="submit">go</Button>
    </Form>
  );
}

const pdf = (name = 'report.pdf') => new File(['%PDF-1.4'], name, { type: 'application/pdf' });
const pick = (container: HTMLElement, ...files: File[]) =>
  act(async () => {
    fireEvent.change(container.querySelector('input[type=file]')!, { target: { files } });
  });

beforeEach(async () => {
  await i18n.changeLanguage('en');
  sent = [];
  delay = 5;
  saveTokens({ access_token: 'a1', refresh_token: 'r1' });
  globalThis.XMLHttpRequest = FakeXhr as unknown as typeof XMLHttpRequest;
});
afterEach(() => {
  cleanup();
  localStorage.clear();
});

describe('file field', () => {
  it('uploads each file with the bearer token and holds the ids; the input takes the accepted types', async () => {
    answer = (n) => uploaded(11 + n, `f${n}.pdf`);
    const submitted: unknown[] = [];
    const { container } = render(<Harness onFinish={(v) => submitted.push(v)} />);
    const input = container.querySelector('input[type=file]')!;
    expect(input.getAttribute('accept')).toBe('application/pdf');
    expect(input.hasAttribute('multiple')).toBe(true);
    expect(screen.getByText('At most 2 files: application/pdf')).toBeTruthy();

    // Required: nothing uploaded yet.
    await act(async () => fireEvent.submit(container.querySelector('form')!));
    await screen.findByText('Attachments is required');

    expect(screen.getByRole('button', { name: 'Choose files for Attachments' })).toBeTruthy();
    await pick(container, pdf('a.pdf'), pdf('b.pdf'));
    await waitFor(() =>
      expect(container.querySelectorAll('.ant-upload-list-item-done')).toHaveLength(2),
    );
    expect(sent.map((s) => s.file.name)).toEqual(['a.pdf', 'b.pdf']);
    // Once the uploads are done, the field is valid again (no stale "wait" nor "required").
    await waitFor(() => expect(container.querySelector('.ant-form-item-explain-error')).toBeNull());
    expect(sent[0]!.headers.authorization).toBe('Bearer a1');
    expect(sent[0]!.headers['x-device-id']).toBeTruthy();
    // Full: the button to add more is gone.
    expect(screen.queryByRole('button', { name: 'Choose files for Attachments' })).toBeNull();

    await act(async () => fireEvent.submit(container.querySelector('form')!));
    await waitFor(() => expect(submitted).toEqual([{ att: [11, 12] }]));

    // Removing a file takes its id out of the value.
    await act(async () => {
      fireEvent.click(screen.getAllByRole('button', { name: /remove|delete/i })[0]!);
    });
    await act(async () => fireEvent.submit(container.querySelector('form')!));
    await waitFor(() => expect(submitted.at(-1)).toEqual({ att: [12] }));
  });

  it('refuses a type the field does not accept, and files past maxCount, saying why', async () => {
    answer = (n) => uploaded(20 + n, 'x.pdf');
    const { container } = render(<Harness onFinish={() => {}} />);
    await pick(container, new File(['MZ'], 'tool.exe', { type: 'application/x-msdownload' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'tool.exe is not an accepted type (application/pdf)',
    );
    expect(sent).toHaveLength(0);

    await pick(container, pdf('1.pdf'), pdf('2.pdf'), pdf('3.pdf'));
    await screen.findByText('3.pdf left out: at most 2 files');
    await waitFor(() => expect(sent.map((s) => s.file.name)).toEqual(['1.pdf', '2.pdf']));
  });

  it('shows a too-large and an over-quota upload where it happened, and keeps no id for them', async () => {
    answer = (n) =>
      n === 0
        ? { status: 413, body: { code: 41300, message: 'file too large', data: null } }
        : {
            status: 409,
            body: { code: 40900, message: 'storage quota exceeded', data: { quota_bytes: 5 } },
          };
    const submitted: unknown[] = [];
    const { container } = render(<Harness onFinish={(v) => submitted.push(v)} />);
    await pick(container, pdf('big.pdf'));
    await screen.findByText('big.pdf: the file is too large');
    await pick(container, pdf('more.pdf'));
    await screen.findByText('more.pdf: the storage quota is used up');
    await act(async () => fireEvent.submit(container.querySelector('form')!));
    await screen.findByText('Attachments is required');
    expect(submitted).toEqual([]);
  });

  it('renews an expired token and sends the upload again, as the API client does', async () => {
    server.answer = (method, path) =>
      method === 'POST' && path === '/api/v1/refresh'
        ? ok({ access_token: 'a2', refresh_token: 'r2' })
        : undefined;
    answer = (n) =>
      n === 0
        ? { status: 401, body: { code: 40101, message: 'token expired', data: null } }
        : uploaded(31, 'late.pdf');
    const submitted: unknown[] = [];
    const { container } = render(<Harness onFinish={(v) => submitted.push(v)} />);
    await pick(container, pdf('late.pdf'));
    await waitFor(() => expect(sent).toHaveLength(2));
    expect(sent[1]!.headers.authorization).toBe('Bearer a2');
    expect(readTokens()).toEqual({ access_token: 'a2', refresh_token: 'r2' });
    await waitFor(() => expect(container.querySelector('.ant-upload-list-item-done')).toBeTruthy());
    await act(async () => fireEvent.submit(container.querySelector('form')!));
    await waitFor(() => expect(submitted).toEqual([{ att: [31] }]));
  });

  it('is not sent while an upload is under way', async () => {
    delay = 300;
    answer = () => uploaded(41, 'slow.pdf');
    const submitted: unknown[] = [];
    const { container } = render(<Harness onFinish={(v) => submitted.push(v)} />);
    await pick(container, pdf('slow.pdf'));
    await act(async () => fireEvent.submit(container.querySelector('form')!));
    await screen.findByText('Wait for the files of Attachments to finish uploading');
    expect(submitted).toEqual([]);
    await waitFor(() => expect(container.querySelector('.ant-upload-list-item-done')).toBeTruthy());
    await waitFor(() => expect(container.querySelector('.ant-form-item-explain-error')).toBeNull());
    await act(async () => fireEvent.submit(container.querySelector('form')!));
    await waitFor(() => expect(submitted).toEqual([{ att: [41] }]));
  });

  it('keeps the files already in the form by name (an approver editing the field)', async () => {
    const submitted: unknown[] = [];
    const files = {
      att: [
        {
          id: 5,
          name: 'quote.pdf',
          size: 2048,
          content_type: 'application/pdf',
          uploaded_by: 2,
          url: '/uploads/k5?expires=1&sig=x',
          expires_at: '2026-01-01T00:05:00Z',
        },
      ],
    };
    const { container } = render(
      <Harness onFinish={(v) => submitted.push(v)} initial={{ att: [5] }} files={files} />,
    );
    expect(screen.getByText('quote.pdf')).toBeTruthy();
    await act(async () => fireEvent.submit(container.querySelector('form')!));
    await waitFor(() => expect(submitted).toEqual([{ att: [5] }]));
  });
});

describe('file helpers', () => {
  it('match types by subtype or by type/*, and write sizes in human units', () => {
    expect(isAccepted('application/pdf', ['application/pdf'])).toBe(true);
    expect(isAccepted('image/png', ['image/*'])).toBe(true);
    expect(isAccepted('imagex/png', ['image/*'])).toBe(false);
    expect(isAccepted('', ['application/pdf'])).toBe(false);
    expect(isAccepted('', undefined)).toBe(true);
    expect(formatSize(512)).toBe('512 B');
    expect(formatSize(1536)).toBe('1.5 KB');
    expect(formatSize(12 * 1024 * 1024)).toBe('12 MB');
  });
});
