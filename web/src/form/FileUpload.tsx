import { UploadOutlined } from '@ant-design/icons';
import { Button, Typography, Upload, type UploadFile } from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FileInfo } from '../api/bpm';
import { ApiError } from '../api/errors';
import { isAccepted, uploadFile } from '../api/files';

interface Props {
  /** The field's value: the ids of the uploaded files. */
  value?: number[];
  onChange?: (ids: number[]) => void;
  /** Files already in the form (an approver's edit), for their names and links. */
  known?: readonly FileInfo[];
  maxCount?: number;
  accept?: readonly string[];
  disabled?: boolean;
  id?: string;
  'aria-label'?: string;
  /** Told how many uploads are under way, so the form is not sent before they end. */
  onPendingChange?: (pending: number) => void;
}

type Item = UploadFile<{ id: number }>;

const itemOf = (f: FileInfo | { id: number; name: string; size: number }): Item => ({
  uid: `file-${f.id}`,
  name: f.name,
  size: f.size,
  status: 'done',
  response: { id: f.id },
  url: 'url' in f ? f.url : undefined,
});

/**
 * A file field's control: each chosen file goes to the files service as it is picked, with its
 * progress; the field's value is the list of the uploaded files' ids. Refused files (type, count)
 * and failed uploads (too large, over quota) say why where they are.
 */
export function FileUpload({
  value,
  onChange,
  known = [],
  maxCount = 1,
  accept,
  disabled = false,
  id,
  'aria-label': ariaLabel,
  onPendingChange,
}: Props) {
  const { t } = useTranslation();
  const [items, setItems] = useState<Item[]>(() =>
    (value ?? []).map(
      (fileId) =>
        itemOf(known.find((k) => k.id === fileId) ?? { id: fileId, name: `#${fileId}`, size: 0 }),
      // The names of ids kept from the form come from the detail's `files`.
    ),
  );
  const [refused, setRefused] = useState<string[]>([]);
  const itemsRef = useRef(items);
  itemsRef.current = items;

  const update = (next: Item[]) => {
    itemsRef.current = next;
    setItems(next);
    // Told before the value changes: the field's validation, run on the change, reads it.
    onPendingChange?.(next.filter((i) => i.status === 'uploading').length);
    const ids = next.filter((i) => i.status === 'done' && i.response).map((i) => i.response!.id);
    const before = value ?? [];
    if (ids.length !== before.length || ids.some((x, k) => x !== before[k])) onChange?.(ids);
  };

  const errorText = (e: unknown): string => {
    if (e instanceof ApiError) {
      if (e.status === 413) return t('form.file.tooLarge');
      if (e.status === 409) return t('form.file.quota');
      if (e.status === 415 || e.code === 40001) return t('form.file.failed', { reason: e.message });
      if (e.status === 0) return t('form.file.network');
      return t('form.file.failed', { reason: e.message });
    }
    return t('form.file.failed', { reason: String(e) });
  };

  const kept = items.filter((i) => i.status !== 'error').length;
  const full = kept >= maxCount;
  const typesText = accept?.length ? accept.join(', ') : null;

  return (
    <div>
      <Upload<{ id: number }>
        id={id}
        fileList={items}
        multiple={maxCount > 1}
        accept={accept?.join(',')}
        disabled={disabled}
        showUploadList={{
          showRemoveIcon: !disabled,
          showDownloadIcon: false,
        }}
        // The upload's own list is kept here; antd's maxCount would replace a file silently.
        beforeUpload={(file, batch) => {
          setRefused([]);
          if (!isAccepted(file.type, accept)) {
            setRefused((r) => [
              ...r,
              t('form.file.refusedType', { name: file.name, types: typesText }),
            ]);
            return Upload.LIST_IGNORE;
          }
          const room = maxCount - itemsRef.current.filter((i) => i.status !== 'error').length;
          const accepted = batch.filter((f) => isAccepted(f.type, accept));
          if (accepted.indexOf(file) >= room) {
            setRefused((r) => [...r, t('form.file.tooMany', { name: file.name, count: maxCount })]);
            return Upload.LIST_IGNORE;
          }
          return true;
        }}
        customRequest={({ file, onProgress, onSuccess, onError }) => {
          const f = file as File & { uid: string };
          const controller = new AbortController();
          uploadFile(f, {
            signal: controller.signal,
            onProgress: (percent) => onProgress?.({ percent }),
          }).then(
            (uploaded) => onSuccess?.({ id: uploaded.id }),
            (e: unknown) => {
              if (e instanceof DOMException && e.name === 'AbortError') return;
              onError?.(new Error(errorText(e)));
            },
          );
          return { abort: () => controller.abort() };
        }}
        onChange={({ file, fileList }) => {
          // antd reports each step of an upload: keep its list, our ids follow the done files.
          const next = fileList.map((i) => {
            if (i.uid !== file.uid) return i;
            // Shown by the item itself (its tooltip) and in words below the list.
            if (file.status === 'error') return { ...i, response: undefined };
            if (file.status === 'done') return { ...i, size: file.size ?? i.size };
            return i;
          });
          update(next);
        }}
      >
        {!full && !disabled && (
          <Button icon={<UploadOutlined />} aria-label={ariaLabel} data-testid={`upload-${id}`}>
            {t('form.file.choose')}
          </Button>
        )}
      </Upload>
      <Typography.Text type="secondary" style={{ display: 'block' }}>
        {typesText
          ? t('form.file.hintTypes', { count: maxCount, types: typesText })
          : t('form.file.hint', { count: maxCount })}
      </Typography.Text>
      {items
        .filter((i) => i.status === 'error')
        .map((i) => (
          <Typography.Text key={i.uid} type="danger" role="alert" style={{ display: 'block' }}>
            {t('form.file.itemError', {
              name: i.name,
              reason: (i.error as Error | undefined)?.message ?? '',
            })}
          </Typography.Text>
        ))}
      {refused.map((r) => (
        <Typography.Text key={r} type="danger" role="alert" style={{ display: 'block' }}>
          {r}
        </Typography.Text>
      ))}
    </div>
  );
}
