import { PaperClipOutlined } from '@ant-design/icons';
import { Descriptions, Spin, Typography } from 'antd';
import { useState, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { FileInfo, FormSchema } from '../../../api/bpm';
import { messageOf } from '../../../api/errors';
import { formatSize } from '../../../api/files';
import { useDepartments, usePeople } from '../../../api/people';
import { deptNames } from '../../../form/deptTree';
import { formatCents } from '../../../form/rules';
import { personLabel } from '../../../form/personLabel';

/**
 * A request's form as read-only values: amounts in yuan, switches as yes / no, and the ids of
 * `user` and `dept` fields as the names of those people and departments.
 */
export function FormValues({
  form,
  schema,
  files = {},
  refreshFiles,
}: {
  form: Record<string, unknown>;
  schema: FormSchema | null;
  /** The detail's `files`: the files of the file fields the caller sees, with signed links. */
  files?: Record<string, FileInfo[]>;
  /** Fetches the detail again for fresh links (a signed link lasts a few minutes). */
  refreshFiles?: () => Promise<Record<string, FileInfo[]> | undefined>;
}) {
  const { t } = useTranslation();
  const fields = schema?.fields.filter((f) => f.key in form) ?? [];
  const known = new Set(fields.map((f) => f.key));
  const extra = Object.keys(form).filter((k) => !known.has(k));
  const people = usePeople(fields.filter((f) => f.type === 'user').map((f) => form[f.key]));
  const hasDept = fields.some((f) => f.type === 'dept');
  const departments = useDepartments(hasDept);
  const depts = deptNames(departments.data);
  const show = (type: string | undefined, v: unknown) => {
    if (v === null || v === undefined) return '-';
    if (type === 'amount' && typeof v === 'number') return `¥ ${formatCents(v)}`;
    if (typeof v === 'boolean') return v ? t('common.yes') : t('common.no');
    if (type === 'user' && typeof v === 'number') return personLabel(t, people, v);
    if (type === 'dept' && typeof v === 'number')
      return depts.get(v) ?? (departments.isPending ? '…' : t('people.dept', { id: v }));
    return String(v);
  };
  return (
    <Descriptions column={{ xs: 1, md: 2 }} size="small" bordered data-testid="instance-form">
      {fields.map((f) => (
        <Descriptions.Item key={f.key} label={f.label}>
          {f.type === 'file' ? (
            <FileList field={f.key} files={files[f.key] ?? []} refresh={refreshFiles} />
          ) : (
            show(f.type, form[f.key])
          )}
        </Descriptions.Item>
      ))}
      {extra.map((k) => (
        <Descriptions.Item key={k} label={k}>
          {show(undefined, form[k])}
        </Descriptions.Item>
      ))}
    </Descriptions>
  );
}

/** A link this close to its end is renewed before it is followed. */
const EXPIRY_MARGIN_MS = 10_000;

/**
 * A file field's files: each name a download link (a new tab), its size and type. A link that
 * may have expired is renewed by fetching the detail again, then opened.
 */
function FileList({
  field,
  files,
  refresh,
}: {
  field: string;
  files: FileInfo[];
  refresh?: () => Promise<Record<string, FileInfo[]> | undefined>;
}) {
  const { t } = useTranslation();
  const [renewing, setRenewing] = useState<number | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  if (files.length === 0)
    return <Typography.Text type="secondary">{t('files.none')}</Typography.Text>;
  const open = async (e: MouseEvent<HTMLAnchorElement>, file: FileInfo) => {
    if (!refresh || Date.parse(file.expires_at) - Date.now() > EXPIRY_MARGIN_MS) return;
    e.preventDefault();
    setRenewing(file.id);
    setFailed(null);
    try {
      const fresh = (await refresh())?.[field]?.find((f) => f.id === file.id);
      if (!fresh) throw new Error(t('files.gone'));
      window.open(fresh.url, '_blank', 'noopener,noreferrer');
    } catch (err) {
      setFailed(messageOf(err));
    } finally {
      setRenewing(null);
    }
  };
  return (
    <ul style={{ listStyle: 'none', margin: 0, padding: 0 }} aria-label={t('files.list')}>
      {files.map((file) => (
        <li key={file.id} data-testid={`file-${file.id}`}>
          <PaperClipOutlined aria-hidden style={{ marginRight: 4 }} />
          <a
            href={file.url}
            target="_blank"
            rel="noopener noreferrer"
            aria-label={t('files.download', { name: file.name })}
            onClick={(e) => void open(e, file)}
          >
            {file.name}
          </a>{' '}
          <Typography.Text type="secondary">
            {formatSize(file.size)} · {file.content_type}
          </Typography.Text>
          {renewing === file.id && (
            <Spin size="small" style={{ marginLeft: 8 }} aria-label={t('files.renewing')} />
          )}
        </li>
      ))}
      {failed && (
        <li>
          <Typography.Text type="danger" role="alert">
            {t('files.renewFailed', { reason: failed })}
          </Typography.Text>
        </li>
      )}
    </ul>
  );
}
