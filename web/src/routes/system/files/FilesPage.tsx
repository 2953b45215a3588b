import { Alert, App, Button, Space, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { messageOf } from '../../../api/errors';
import {
  formatSize,
  freshFileLink,
  useDeleteFile,
  useFiles,
  type StoredFile,
} from '../../../api/files';
import { useAuth } from '../../../auth/AuthContext';
import { PersonName } from '../../../components/PersonName';
import { AdminTable } from '../../admin/shared/AdminTable';
import { ConfirmButton } from '../../admin/shared/ConfirmButton';
import { useListQuery } from '../../admin/shared/listQuery';
import { deleteProblem } from './fileErrors';
import { StorageUsage } from './StorageUsage';
import { UploadButton } from './UploadButton';

const FILTERS = [] as const;

/**
 * `/system/files`: the tenant's files (`system:file:list`), newest first, the page in the URL;
 * its storage against the quota; upload; open through a fresh link; delete (one's own, or any
 * with `system:file:delete`), a file a running request holds refused in words.
 */
export default function FilesPage() {
  const { t } = useTranslation('systemTools');
  const { t: ta } = useTranslation('admin');
  const { message } = App.useApp();
  const { me, can } = useAuth();
  const list = useListQuery(FILTERS);
  const files = useFiles({ page: list.page, page_size: list.page_size });
  const remove = useDeleteFile();
  const [problem, setProblem] = useState<string | null>(null);

  // A link signed now: the list's own expire a few minutes after it was read.
  const open = async (file: StoredFile) => {
    try {
      window.open(await freshFileLink(file.id), '_blank', 'noopener');
    } catch (error) {
      setProblem(t('files.linkFailed', { name: file.name, reason: messageOf(error) }));
    }
  };

  const destroy = async (file: StoredFile) => {
    setProblem(null);
    try {
      await remove.mutateAsync(file.id);
      void message.success(t('files.deleted', { name: file.name }));
    } catch (error) {
      setProblem(deleteProblem(t, file.name, error));
    }
  };

  const mayDelete = (file: StoredFile) => can('system:file:delete') || file.uploaded_by === me?.id;

  const columns: TableColumnsType<StoredFile> = [
    {
      title: t('files.name'),
      key: 'name',
      render: (_, f) => (
        <Button
          type="link"
          size="small"
          style={{ padding: 0, height: 'auto', whiteSpace: 'normal', textAlign: 'left' }}
          title={t('files.openLabel', { name: f.name })}
          onClick={() => void open(f)}
        >
          {f.name}
        </Button>
      ),
    },
    { title: t('files.size'), key: 'size', render: (_, f) => formatSize(f.size) },
    { title: t('files.type'), dataIndex: 'content_type', key: 'type' },
    {
      title: t('files.uploader'),
      key: 'uploader',
      render: (_, f) => <PersonName id={f.uploaded_by} />,
    },
    {
      title: t('files.uploadedAt'),
      key: 'created_at',
      render: (_, f) => new Date(f.created_at).toLocaleString(),
    },
    {
      title: t('common.actions'),
      key: 'actions',
      render: (_, f) => (
        <Space size={0}>
          <Button size="small" type="link" onClick={() => void open(f)}>
            {t('files.open')}
          </Button>
          {mayDelete(f) && (
            <ConfirmButton
              question={t('files.deleteQuestion', { name: f.name })}
              action={ta('common.delete')}
              onConfirm={() => destroy(f)}
            >
              {ta('common.delete')}
            </ConfirmButton>
          )}
        </Space>
      ),
    },
  ];

  return (
    <AdminTable<StoredFile>
      title={t('files.title')}
      testId="files-table"
      toolbar={
        <Space orientation="vertical" size={12} style={{ width: '100%' }}>
          <StorageUsage />
          <UploadButton onProblem={setProblem} />
          {problem && (
            <Alert
              type="error"
              showIcon
              role="alert"
              closable={{ 'aria-label': ta('common.close') }}
              onClose={() => setProblem(null)}
              title={problem}
              data-testid="files-problem"
            />
          )}
        </Space>
      }
      query={files}
      columns={columns}
      rowKey="id"
      page={list.page}
      pageSize={list.page_size}
      onPage={list.setPage}
      emptyText={t('files.empty')}
    />
  );
}
