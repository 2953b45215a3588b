import { Card, Col, Row, Space, Table, type TableColumnsType } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useBpmStats, type BpmStats } from '../../../api/approvalsAdmin';
import { EmptyState, ErrorState, LoadingState } from '../../../components/states';
import { STATUSES } from '../shared/columns';
import { Chart } from './Chart';
import {
  bottlenecksOption,
  definitionsOption,
  distributionOption,
  durationParts,
  percent,
  trendOption,
} from './chartOptions';

type Definition = BpmStats['definitions'][number];
type Bottleneck = BpmStats['bottlenecks'][number];
type Day = BpmStats['trend_30d'][number];

/** A chart and its table side by side (stacked on a narrow screen). */
function ChartCard(props: { title: string; chart: ReactNode; table: ReactNode; testId: string }) {
  return (
    <Card title={props.title} data-testid={props.testId}>
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={14}>
          {props.chart}
        </Col>
        <Col xs={24} xl={10}>
          {props.table}
        </Col>
      </Row>
    </Card>
  );
}

/**
 * `/approvals/analytics` (platform admin, `GET /bpm/stats`): requests by status, the last 30
 * days, approval rate and average duration per process, and the ten slowest steps; each chart
 * with its table beside it.
 */
export default function AnalyticsPage() {
  const { t } = useTranslation('approvals');
  const stats = useBpmStats();
  if (stats.isPending) return <LoadingState />;
  if (stats.isError) return <ErrorState error={stats.error} onRetry={() => void stats.refetch()} />;
  const s = stats.data;
  const duration = (ms: number | null) => {
    if (ms === null) return '-';
    const { unit, value } = durationParts(ms);
    return t(`analytics.${unit}`, { value });
  };
  const empty = { emptyText: <EmptyState text={t('analytics.none')} /> };
  const distribution = STATUSES.map((status) => ({
    status,
    count: s.status_distribution[status] ?? 0,
  }));

  const definitionColumns: TableColumnsType<Definition> = [
    { title: t('analytics.definition'), dataIndex: 'definition_key', key: 'key' },
    { title: t('analytics.finished'), dataIndex: 'finished', key: 'finished' },
    { title: t('analytics.approved'), dataIndex: 'approved', key: 'approved' },
    { title: t('analytics.approvalRate'), key: 'rate', render: (_, d) => percent(d.approval_rate) },
    {
      title: t('analytics.avgDuration'),
      key: 'avg',
      render: (_, d) => duration(d.avg_duration_ms),
    },
  ];
  const bottleneckColumns: TableColumnsType<Bottleneck> = [
    { title: t('analytics.step'), dataIndex: 'node_name', key: 'node' },
    { title: t('analytics.definition'), dataIndex: 'definition_key', key: 'key' },
    {
      title: t('analytics.avgDuration'),
      key: 'avg',
      render: (_, b) => duration(b.avg_duration_ms),
    },
    { title: t('analytics.pending'), dataIndex: 'pending', key: 'pending' },
  ];
  const dayColumns: TableColumnsType<Day> = [
    { title: t('analytics.date'), dataIndex: 'date', key: 'date' },
    { title: t('analytics.started'), dataIndex: 'started', key: 'started' },
    { title: t('analytics.finishedCount'), dataIndex: 'finished', key: 'finished' },
  ];

  return (
    <Space direction="vertical" size="large" style={{ width: '100%' }}>
      <h1 style={{ margin: 0, fontSize: 20 }}>{t('analytics.title')}</h1>
      <ChartCard
        title={t('analytics.distribution')}
        testId="stats-distribution"
        chart={
          <Chart
            testId="chart-distribution"
            option={distributionOption(s.status_distribution, STATUSES, (x) => t(`status.${x}`))}
          />
        }
        table={
          <Table
            size="small"
            rowKey="status"
            pagination={false}
            dataSource={distribution}
            columns={[
              { title: t('analytics.status'), key: 's', render: (_, r) => t(`status.${r.status}`) },
              { title: t('analytics.count'), dataIndex: 'count', key: 'c' },
            ]}
          />
        }
      />
      <ChartCard
        title={t('analytics.trend')}
        testId="stats-trend"
        chart={
          <Chart
            testId="chart-trend"
            option={trendOption(s.trend_30d, {
              started: t('analytics.started'),
              finished: t('analytics.finishedCount'),
            })}
          />
        }
        table={
          <Table<Day>
            size="small"
            rowKey="date"
            dataSource={[...s.trend_30d].reverse()}
            columns={dayColumns}
            pagination={{ pageSize: 7, size: 'small' }}
            locale={empty}
          />
        }
      />
      <ChartCard
        title={t('analytics.perDefinition')}
        testId="stats-definitions"
        chart={
          <Chart
            testId="chart-definitions"
            option={definitionsOption(s.definitions, {
              rate: t('analytics.approvalRate'),
              duration: t('analytics.avgDuration'),
            })}
          />
        }
        table={
          <Table<Definition>
            size="small"
            rowKey="definition_key"
            dataSource={s.definitions}
            columns={definitionColumns}
            pagination={{ pageSize: 10, size: 'small', hideOnSinglePage: true }}
            locale={empty}
          />
        }
      />
      <ChartCard
        title={t('analytics.bottlenecks')}
        testId="stats-bottlenecks"
        chart={
          <Chart
            testId="chart-bottlenecks"
            option={bottlenecksOption(s.bottlenecks, t('analytics.avgDuration'))}
          />
        }
        table={
          <Table<Bottleneck>
            size="small"
            rowKey={(b) => `${b.definition_key}/${b.node_id}`}
            dataSource={s.bottlenecks}
            columns={bottleneckColumns}
            pagination={false}
            locale={empty}
          />
        }
      />
    </Space>
  );
}
