import { Card, Col, Row, Segmented, Space, Table, Typography, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import {
  METRICS,
  TREND_RANGES,
  useMetricTrends,
  type Trends,
  type TrendRange,
} from '../../../api/monitor';
import { EmptyState, ErrorState, LoadingState } from '../../../components/states';
import { Chart } from '../../approvals/analytics/Chart';
import { rounded, unitOf } from '../shared/format';
import { metricKey, useWords } from '../shared/words';
import { seriesOf, trendOption, trendRows, type TrendRow } from './trendChart';

/** One metric's trend: a chart, or the same numbers as a table (the chart is hidden from screen readers). */
function TrendCard({ metric, trends }: { metric: string; trends: Trends }) {
  const { t } = useTranslation('monitor');
  const w = useWords();
  const [view, setView] = useState<'chart' | 'table'>('chart');
  const series = seriesOf(trends, metric);
  const unit = unitOf(metric);
  const label = w.metric(metric);
  const platform = series.length === 1 && series[0]!.service === null;
  const number = (v: unknown) => (typeof v === 'number' ? rounded(v, unit) : '-');
  const columns: TableColumnsType<TrendRow> = [
    { title: t('trends.time'), key: 'at', render: (_, r) => w.time(r.at) },
    ...(platform
      ? [
          {
            title: t('trends.avg'),
            key: 'avg',
            align: 'right' as const,
            render: (_: unknown, r: TrendRow) => number(r.avg),
          },
          {
            title: t('trends.max'),
            key: 'max',
            align: 'right' as const,
            render: (_: unknown, r: TrendRow) => number(r.max),
          },
          {
            title: t('trends.samples'),
            dataIndex: 'samples',
            key: 'samples',
            align: 'right' as const,
          },
        ]
      : series.map((s) => ({
          title: s.service ?? '-',
          key: `service:${s.service ?? ''}`,
          align: 'right' as const,
          render: (_: unknown, r: TrendRow) => number(r[`service:${s.service ?? ''}`]),
        }))),
  ];
  const unitName = t(`unitNames.${unit}`);
  return (
    <Card
      title={unitName ? `${label} (${unitName})` : label}
      data-testid={`trend-${metric}`}
      styles={{ body: { padding: 12 } }}
      extra={
        series.length > 0 && (
          <Segmented
            size="small"
            aria-label={t('trends.viewOf', { metric: label })}
            value={view}
            onChange={(v) => setView(v as 'chart' | 'table')}
            options={[
              { value: 'chart', label: t('trends.chart') },
              { value: 'table', label: t('trends.table') },
            ]}
          />
        )
      }
    >
      <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
        {t(`metricHelp.${metricKey(metric)}`)}
      </Typography.Paragraph>
      {series.length === 0 ? (
        <EmptyState text={t('trends.metricEmpty')} />
      ) : view === 'chart' ? (
        <Chart
          testId={`chart-${metric}`}
          option={trendOption(
            metric,
            series,
            trends,
            { avg: t('trends.avg'), max: t('trends.max'), unit: unitName },
            (v) => rounded(v, unit),
          )}
        />
      ) : (
        <div tabIndex={0} style={{ overflowX: 'auto' }}>
          <Table<TrendRow>
            size="small"
            rowKey="at"
            dataSource={trendRows(metric, series)}
            columns={columns}
            pagination={{
              pageSize: 10,
              size: 'small',
              hideOnSinglePage: true,
              showSizeChanger: false,
            }}
            style={{ minWidth: 'max-content' }}
          />
        </div>
      )}
    </Card>
  );
}

/**
 * The trends tab: every metric over the last hour, day or week (`?range=`), a chart per metric
 * with its table a click away; an empty state before the sampler's first round.
 */
export default function TrendsTab() {
  const { t } = useTranslation('monitor');
  const w = useWords();
  const [params, setParams] = useSearchParams();
  const range: TrendRange = TREND_RANGES.find((r) => r === params.get('range')) ?? '1h';
  const trends = useMetricTrends(range);
  const setRange = (next: TrendRange) => {
    const query = new URLSearchParams(params);
    if (next === '1h') query.delete('range');
    else query.set('range', next);
    setParams(query, { replace: true });
  };
  const data = trends.data;
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Space wrap>
        <Segmented
          aria-label={t('trends.range')}
          value={range}
          onChange={(v) => setRange(v as TrendRange)}
          options={TREND_RANGES.map((r) => ({ value: r, label: t(`trends.ranges.${r}`) }))}
        />
        {data && (
          <Typography.Text type="secondary" data-testid="trend-span">
            {t('trends.span', {
              from: w.time(data.from),
              to: w.time(data.to),
              bucket: w.span(data.bucket_seconds),
            })}
          </Typography.Text>
        )}
      </Space>
      {trends.isError ? (
        <ErrorState error={trends.error} onRetry={() => void trends.refetch()} />
      ) : !data ? (
        <LoadingState />
      ) : data.series.length === 0 ? (
        <Card>
          <EmptyState text={t('trends.empty')} />
        </Card>
      ) : (
        <Row gutter={[16, 16]}>
          {METRICS.map((metric) => (
            <Col xs={24} xl={12} key={metric}>
              <TrendCard metric={metric} trends={data} />
            </Col>
          ))}
        </Row>
      )}
    </Space>
  );
}
