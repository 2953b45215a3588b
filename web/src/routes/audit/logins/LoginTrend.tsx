import { Card, Col, Row, Statistic, Table } from 'antd';
import { LineChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import ReactEChartsCore from 'echarts-for-react/esm/core';
import { useTranslation } from 'react-i18next';
import { useLoginStats, useLoginTrend, type LoginTrendDay } from '../../../api/audit';
import { ErrorState } from '../../../components/states';
import { useThemeMode } from '../../../theme';

// Only what this chart draws: the full echarts build would add ~377 KB to the page.
echarts.use([LineChart, GridComponent, LegendComponent, TooltipComponent, CanvasRenderer]);

/** The chart's options: two lines, successes and failures, a point a day. */
export function trendOption(days: LoginTrendDay[], labels: { ok: string; failed: string }) {
  return {
    backgroundColor: 'transparent',
    tooltip: { trigger: 'axis' },
    legend: { data: [labels.ok, labels.failed] },
    grid: { left: 40, right: 16, top: 40, bottom: 24 },
    xAxis: { type: 'category', data: days.map((d) => d.date) },
    yAxis: { type: 'value', minInterval: 1 },
    series: [
      { name: labels.ok, type: 'line', data: days.map((d) => d.success), color: '#52c41a' },
      { name: labels.failed, type: 'line', data: days.map((d) => d.failed), color: '#ff4d4f' },
    ],
  };
}

/** The last 7 days' sign-ins as a chart with its table beside it, and the totals of all time. */
export function LoginTrend() {
  const { t } = useTranslation('audit');
  const mode = useThemeMode();
  const trend = useLoginTrend();
  const stats = useLoginStats();
  const days = trend.data ?? [];
  const labels = { ok: t('logins.succeeded'), failed: t('logins.failed') };
  return (
    <Row gutter={[16, 16]} style={{ marginBottom: 16 }}>
      <Col xs={24} lg={16}>
        <Card title={t('logins.trendTitle')} loading={trend.isPending} data-testid="login-trend">
          {trend.isError ? (
            <ErrorState error={trend.error} onRetry={() => void trend.refetch()} />
          ) : (
            <Row gutter={16}>
              <Col xs={24} md={14}>
                <div aria-hidden="true">
                  <ReactEChartsCore
                    echarts={echarts}
                    option={trendOption(days, labels)}
                    theme={mode === 'dark' ? 'dark' : undefined}
                    style={{ height: 260 }}
                    notMerge
                  />
                </div>
              </Col>
              <Col xs={24} md={10}>
                <Table<LoginTrendDay>
                  size="small"
                  pagination={false}
                  rowKey="date"
                  dataSource={days}
                  data-testid="login-trend-table"
                  columns={[
                    { title: t('logins.date'), dataIndex: 'date' },
                    { title: labels.ok, dataIndex: 'success', align: 'right' },
                    { title: labels.failed, dataIndex: 'failed', align: 'right' },
                  ]}
                />
              </Col>
            </Row>
          )}
        </Card>
      </Col>
      <Col xs={24} lg={8}>
        <Card title={t('logins.statsTitle')} loading={stats.isPending} data-testid="login-stats">
          {stats.isError ? (
            <ErrorState error={stats.error} onRetry={() => void stats.refetch()} />
          ) : (
            <Row gutter={[16, 16]}>
              <Col span={12}>
                <Statistic title={t('logins.total')} value={stats.data?.total ?? 0} />
              </Col>
              <Col span={12}>
                <Statistic title={t('logins.uniqueUsers')} value={stats.data?.unique_users ?? 0} />
              </Col>
              <Col span={12}>
                <Statistic title={labels.ok} value={stats.data?.success ?? 0} />
              </Col>
              <Col span={12}>
                <Statistic title={labels.failed} value={stats.data?.failed ?? 0} />
              </Col>
              <Col span={24}>
                <Table
                  size="small"
                  pagination={false}
                  rowKey="type"
                  dataSource={Object.entries(stats.data?.by_type ?? {}).map(([type, count]) => ({
                    type,
                    count,
                  }))}
                  columns={[
                    {
                      title: t('logins.byType'),
                      dataIndex: 'type',
                      render: (type: string) => t(`logins.types.${type}`, { defaultValue: type }),
                    },
                    { title: t('logins.total'), dataIndex: 'count', align: 'right' },
                  ]}
                />
              </Col>
            </Row>
          )}
        </Card>
      </Col>
    </Row>
  );
}
