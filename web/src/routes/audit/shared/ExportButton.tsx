import { DownloadOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { useCsvExport, type BusinessAuditQuery, type OperationLogQuery } from '../../../api/audit';
import { useNotify } from '../../admin/shared/useNotify';

type Request =
  | { kind: 'operations'; query: Omit<OperationLogQuery, 'page' | 'page_size'> }
  | { kind: 'business'; query: Omit<BusinessAuditQuery, 'page' | 'page_size'> };

/** Offers the browser a Blob as a file download named `name`. */
export function saveBlob(blob: Blob, name: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** The CSV of what the list shows (its filters, every page), saved as `<prefix>-<date>.csv`. */
export function ExportButton({ request, prefix }: { request: Request; prefix: string }) {
  const { t } = useTranslation('audit');
  const exporter = useCsvExport();
  const notify = useNotify();
  const name = `${prefix}-${new Date().toISOString().slice(0, 10)}.csv`;
  return (
    <Button
      icon={<DownloadOutlined />}
      loading={exporter.isPending}
      onClick={() =>
        void notify(
          async () => {
            saveBlob(await exporter.mutateAsync(request), name);
          },
          t('common.exported', { file: name }),
        )
      }
    >
      {t('common.export')}
    </Button>
  );
}
