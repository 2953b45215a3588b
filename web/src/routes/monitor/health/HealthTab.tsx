import { ReloadOutlined } from '@ant-design/icons';
import type { UseQueryResult } from '@tanstack/react-query';
import { Button, Card, Space, Table, Typography, type TableColumnsType } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import {
  useJobHeartbeats,
  useServiceHealth,
  type JobHeartbeat,
  type ServiceHealth,
} from '../../../api/monitor';
import { useAuth } from '../../../auth/AuthContext';
import { EmptyState, ErrorState } from '../../../components/states';
import { byAttention } from '../shared/format';
import { StatusTag, useRowTint, useWords } from '../shared/words';

/**
 * A list the server answers whole, asked again every 15 s and on demand: when it was last
 * answered, a summary line, and the table (its error in place of it).
 */
function HealthCard<T extends object>(props: {
  title: string;
  testId: string;
  query: UseQueryResult<T[]>;
  summary: ReactNode;
  columns: TableColumnsType<T>;
  rows: T[];
  rowKey: keyof T & string;
  tint?: (row: T) => string | undefined;
  empty: string;
}) {
  const { t, i18n } = useTranslation('monitor');
  const { query } = props;
  const updated = query.dataUpdatedAt
    ? new Date(query.dataUpdatedAt).toLocaleTimeString(i18n.language)
    : null;
  return (
    <Card
      title={props.title}
      data-testid={props.testId}
      styles={{ body: { padding: 12 } }}
      extra={
        <Space wrap>
          {updated && (
            <Typography.Text type="secondary">
              {t('common.updated', { time: updated })}
            </Typography.Text>
          )}
          <Button
            size="small"
            icon={<ReloadOutlined />}
            loading={query.isFetching}
            onClick={() => void query.refetch()}
            aria-label={t('common.refreshWhat', { what: props.title })}
          >
            {t('common.refresh')}
          </Button>
        </Space>
      }
    >
      {query.isError ? (
        <ErrorState error={query.error} onRetry={() => void query.refetch()} />
      ) : (
        <>
          {query.data && <div style={{ marginBottom: 12 }}>{props.summary}</div>}
          <div tabIndex={0} style={{ overflowX: 'auto' }}>
            <Table<T>
              size="small"
              rowKey={props.rowKey}
              loading={query.isPending}
              dataSource={props.rows}
              columns={props.columns}
              pagination={false}
              style={{ minWidth: 'max-content' }}
              onRow={(row) => ({ style: { background: props.tint?.(row) } })}
              locale={{ emptyText: query.isPending ? ' ' : <EmptyState text={props.empty} /> }}
            />
          </div>
        </>
      )}
    </Card>
  );
}

/** The services' readiness probes: each ready or down, with its latency and why it is down. */
function ServicesCard() {
  const { t } = useTranslation('monitor');
  const w = useWords();
  const tint = useRowTint();
  const services = useServiceHealth();
  const list = services.data ?? [];
  const down = list.filter((s) => s.status === 'down').length;
  const columns: TableColumnsType<ServiceHealth> = [
    { title: t('services.name'), dataIndex: 'name', key: 'name' },
    {
      title: t('services.status'),
      key: 'status',
      render: (_, s) => <StatusTag status={s.status} />,
    },
    {
      title: t('services.latency'),
      key: 'latency',
      align: 'right',
      render: (_, s) => t('units.ms', { value: s.latency_ms }),
    },
    { title: t('services.checkedAt'), key: 'at', render: (_, s) => w.time(s.checked_at) },
    {
      title: t('services.error'),
      key: 'error',
      render: (_, s) => s.error ?? '-',
    },
  ];
  return (
    <HealthCard<ServiceHealth>
      title={t('services.title')}
      testId="services-health"
      query={services}
      rows={list}
      rowKey="name"
      columns={columns}
      tint={(s) => (s.status === 'down' ? tint.error : undefined)}
      empty={t('services.empty')}
      summary={
        down === 0 ? (
          <Typography.Text type="success">
            {t('services.allReady', { count: list.length })}
          </Typography.Text>
        ) : (
          <Typography.Text type="danger" strong>
            {t('services.someDown', { down, count: list.length })}
          </Typography.Text>
        )
      }
    />
  );
}

/** Every job's last heartbeat, the failing and late ones first, with their messages. */
function JobsCard() {
  const { t } = useTranslation('monitor');
  const w = useWords();
  const tint = useRowTint();
  const jobs = useJobHeartbeats();
  const list = byAttention(jobs.data ?? []);
  const problems = list.filter((j) => j.status !== 'ok').length;
  const columns: TableColumnsType<JobHeartbeat> = [
    { title: t('jobs.name'), dataIndex: 'name', key: 'name' },
    { title: t('jobs.status'), key: 'status', render: (_, j) => <StatusTag status={j.status} /> },
    {
      title: t('jobs.lastRun'),
      key: 'last',
      render: (_, j) =>
        j.last_run_at ? (
          <span title={w.time(j.last_run_at)}>{w.ago(j.last_run_at)}</span>
        ) : (
          <Typography.Text strong>{t('jobs.neverReported')}</Typography.Text>
        ),
    },
    { title: t('jobs.period'), key: 'period', render: (_, j) => w.every(j.interval_seconds) },
    {
      title: t('jobs.message'),
      key: 'message',
      // The server's "never reported" is said in the reader's language in the last-run column.
      render: (_, j) => (j.last_run_at === null ? '-' : (j.message ?? '-')),
    },
  ];
  return (
    <HealthCard<JobHeartbeat>
      title={t('jobs.title')}
      testId="job-heartbeats"
      query={jobs}
      rows={list}
      rowKey="name"
      columns={columns}
      tint={(j) =>
        j.status === 'error' ? tint.error : j.status === 'stale' ? tint.warning : undefined
      }
      empty={t('jobs.empty')}
      summary={
        problems === 0 ? (
          <Typography.Text type="success">
            {t('jobs.allOk', { count: list.length })}
          </Typography.Text>
        ) : (
          <Typography.Text type="danger" strong>
            {t('jobs.someLate', { problems, count: list.length })}
          </Typography.Text>
        )
      }
    />
  );
}

/** The health tab: the services' probes and the jobs' heartbeats, each as the caller may see. */
export function HealthTab() {
  const { can } = useAuth();
  return (
    <Space direction="vertical" size="large" style={{ width: '100%' }}>
      {can('monitor:service:list') && <ServicesCard />}
      {can('monitor:job:list') && <JobsCard />}
    </Space>
  );
}
