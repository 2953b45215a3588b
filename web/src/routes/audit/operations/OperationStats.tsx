import { Alert, Card, Col, Row, Statistic, Table } from 'antd';
import { useTranslation } from 'react-i18next';
import { useOperationStats, type StatsQuery } from '../../../api/audit';
import { messageOf } from '../../../api/errors';

/** The time range's request count, errors and latency, and the busiest modules, statuses and paths. */
export function OperationStats({ query }: { query: StatsQuery }) {
  const { t } = useTranslation('audit');
  const stats = useOperationStats(query);
  if (stats.isError) {
    return (
      <Alert
        type="warning"
        showIcon
        title={t('common.statsFailed', { reason: messageOf(stats.error) })}
        style={{ marginBottom: 16 }}
      />
    );
  }
  const s = stats.data;
  const small = { size: 'small' as const, pagination: false as const };
  return (
    <Card
      title={t('operations.statsTitle')}
      loading={stats.isPending}
      style={{ marginBottom: 16 }}
      data-testid="operation-stats"
    >
      <Row gutter={[16, 16]}>
        <Col xs={12} md={6}>
          <Statistic title={t('operations.total')} value={s?.total ?? 0} />
        </Col>
        <Col xs={12} md={6}>
          <Statistic title={t('operations.errors')} value={s?.errors ?? 0} />
        </Col>
        <Col xs={12} md={6}>
          <Statistic title={t('operations.avgLatency')} value={s?.avg_latency_ms ?? 0} />
        </Col>
        <Col xs={12} md={6}>
          <Statistic title={t('operations.p95Latency')} value={s?.p95_latency_ms ?? 0} />
        </Col>
        <Col xs={24} md={6}>
          <Table
            {...small}
            rowKey="module"
            dataSource={s?.by_module.slice(0, 8) ?? []}
            columns={[
              { title: t('operations.byModule'), dataIndex: 'module' },
              { title: t('operations.count'), dataIndex: 'count', align: 'right' },
            ]}
          />
        </Col>
        <Col xs={24} md={6}>
          <Table
            {...small}
            rowKey="status"
            dataSource={s?.by_status ?? []}
            columns={[
              { title: t('operations.byStatus'), dataIndex: 'status' },
              { title: t('operations.count'), dataIndex: 'count', align: 'right' },
            ]}
          />
        </Col>
        <Col xs={24} md={12}>
          <Table
            {...small}
            rowKey="path"
            dataSource={s?.top_paths.slice(0, 8) ?? []}
            columns={[
              { title: t('operations.topPaths'), dataIndex: 'path' },
              { title: t('operations.count'), dataIndex: 'count', align: 'right' },
              { title: t('operations.avgLatency'), dataIndex: 'avg_latency_ms', align: 'right' },
            ]}
          />
        </Col>
      </Row>
    </Card>
  );
}
