import { Button, Input, Select, Space, Tag, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useOperationLogs, type OperationLog } from '../../../api/audit';
import { useAuth } from '../../../auth/AuthContext';
import { AdminTable } from '../../admin/shared/AdminTable';
import { useListQuery } from '../../admin/shared/listQuery';
import { ClearLogs } from '../shared/ClearLogs';
import { ExportButton } from '../shared/ExportButton';
import { METHODS, OPERATION_FILTERS, operationQuery } from '../shared/queries';
import { TimeRange } from '../shared/TimeRange';
import { OperationDetail } from './OperationDetail';
import { OperationStats } from './OperationStats';

/** The colour of a response status: errors stand out. */
const statusColor = (status: number) =>
  status >= 500 ? 'error' : status >= 400 ? 'warning' : 'success';

/** `/audit/operations`: every API request, filtered in the URL, with its detail and summary. */
export default function OperationsPage() {
  const { t } = useTranslation('audit');
  const { can } = useAuth();
  const list = useListQuery(OPERATION_FILTERS);
  const filters = operationQuery(list.filters);
  const logs = useOperationLogs({ page: list.page, page_size: list.page_size, ...filters });
  const [open, setOpen] = useState<number | null>(null);

  const columns: TableColumnsType<OperationLog> = [
    {
      title: t('common.time'),
      key: 'created_at',
      render: (_, l) => new Date(l.created_at).toLocaleString(),
    },
    {
      title: t('operations.user'),
      key: 'user',
      render: (_, l) => (l.anonymous ? `${l.username} (${t('operations.anonymous')})` : l.username),
    },
    { title: t('operations.module'), dataIndex: 'module', key: 'module' },
    { title: t('operations.method'), dataIndex: 'method', key: 'method' },
    { title: t('operations.path'), dataIndex: 'path', key: 'path' },
    {
      title: t('operations.status'),
      key: 'status',
      render: (_, l) => <Tag color={statusColor(l.status)}>{l.status}</Tag>,
    },
    { title: t('operations.latency'), dataIndex: 'latency_ms', key: 'latency', align: 'right' },
    { title: t('operations.ip'), dataIndex: 'ip', key: 'ip' },
    {
      title: t('common.actions'),
      key: 'actions',
      render: (_, l) => (
        <Button size="small" type="link" onClick={() => setOpen(l.id)}>
          {t('common.details')}
        </Button>
      ),
    },
  ];

  const search = (key: 'module' | 'user' | 'keyword', label: string, width = 180) => (
    <Input.Search
      key={`${key}-${list.filters[key] ?? ''}`}
      aria-label={label}
      placeholder={label}
      defaultValue={list.filters[key]}
      allowClear
      onSearch={(v) => list.setFilter(key, v.trim())}
      style={{ width }}
    />
  );

  return (
    <>
      <OperationStats
        query={{
          ...(filters.start_time ? { start_time: filters.start_time } : {}),
          ...(filters.end_time ? { end_time: filters.end_time } : {}),
        }}
      />
      <AdminTable<OperationLog>
        title={t('operations.title')}
        testId="operation-logs-table"
        toolbar={
          <Space wrap>
            {search('keyword', t('operations.keyword'), 220)}
            {search('user', t('operations.userPlaceholder'))}
            {search('module', t('operations.module'), 150)}
            <Select
              aria-label={t('operations.method')}
              placeholder={t('operations.method')}
              value={filters.method}
              allowClear
              onChange={(v?: string) => list.setFilter('method', v ?? null)}
              options={METHODS.map((m) => ({ value: m, label: m }))}
              style={{ width: 120 }}
            />
            <Input.Search
              key={`status-${list.filters.status ?? ''}`}
              aria-label={t('operations.status')}
              placeholder={t('operations.status')}
              defaultValue={list.filters.status}
              inputMode="numeric"
              maxLength={3}
              allowClear
              onSearch={(v) => list.setFilter('status', v.trim())}
              style={{ width: 120 }}
            />
            <TimeRange />
            <ExportButton
              request={{ kind: 'operations', query: filters }}
              prefix="operation-logs"
            />
            {can('system:log:operation:clear') && <ClearLogs kind="operations" />}
          </Space>
        }
        query={logs}
        columns={columns}
        rowKey="id"
        page={list.page}
        pageSize={list.page_size}
        onPage={list.setPage}
        emptyText={t('operations.empty')}
      />
      <OperationDetail id={open} onClose={() => setOpen(null)} />
    </>
  );
}
