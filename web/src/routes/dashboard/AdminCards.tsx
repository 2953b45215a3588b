import { Card, Col, List, Row, Statistic, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useBpmStats, useStuckInstances } from '../../api/bpmLists';
import { usePlatformHealth } from '../../api/health';
import { EmptyState, ErrorState, LoadingState } from '../../components/states';
import { useDeferredAnswer } from '../../components/deferredAnswer';
import { headingStyle } from './NoticesCard';

/** Platform administrators' view of today: requests started and finished, and the last 24 hours' decisions. */
export function TodayCard() {
  const { t } = useTranslation();
  const stats = useDeferredAnswer(useBpmStats(true));
  let body;
  if (stats.isPending) body = <LoadingState />;
  else if (stats.isError)
    body = <ErrorState error={stats.error} onRetry={() => void stats.refetch()} />;
  else {
    const today = stats.data.trend_30d[stats.data.trend_30d.length - 1];
    body = (
      <Row gutter={[16, 16]}>
        <Col xs={12} md={6}>
          <Statistic
            title={t('dashboard.startedToday')}
            value={today?.started ?? 0}
            data-testid="dashboard-started-today"
          />
        </Col>
        <Col xs={12} md={6}>
          <Statistic title={t('dashboard.finishedToday')} value={today?.finished ?? 0} />
        </Col>
        <Col xs={12} md={6}>
          <Statistic
            title={t('dashboard.approved24h')}
            value={stats.data.last_24h.approved}
            data-testid="dashboard-approved-24h"
          />
        </Col>
        <Col xs={12} md={6}>
          <Statistic title={t('dashboard.rejected24h')} value={stats.data.last_24h.rejected} />
        </Col>
      </Row>
    );
  }
  return <Card title={<h2 style={headingStyle}>{t('dashboard.admin')}</h2>}>{body}</Card>;
}

/** Suspended requests waiting for a repair, the first few linked. */
export function StuckCard() {
  const { t } = useTranslation();
  const stuck = useDeferredAnswer(useStuckInstances(true));
  let body;
  if (stuck.isPending) body = <LoadingState />;
  else if (stuck.isError)
    body = <ErrorState error={stuck.error} onRetry={() => void stuck.refetch()} />;
  else if (stuck.data.total === 0) body = <EmptyState text={t('dashboard.noStuck')} />;
  else
    body = (
      <>
        <Statistic title={t('dashboard.stuckCount')} value={stuck.data.total} />
        <List
          size="small"
          dataSource={stuck.data.list}
          rowKey="id"
          renderItem={(i) => (
            <List.Item>
              <Link to={`/instances/${i.id}`}>{i.title}</Link>
            </List.Item>
          )}
        />
      </>
    );
  return (
    <Card
      title={<h2 style={headingStyle}>{t('dashboard.stuck')}</h2>}
      data-testid="dashboard-stuck"
    >
      {body}
    </Card>
  );
}

/** Each service's readiness as the gateway sees it. */
export function HealthCard() {
  const { t } = useTranslation();
  const health = useDeferredAnswer(usePlatformHealth(true));
  let body;
  if (health.isPending) body = <LoadingState />;
  else if (health.isError)
    body = <ErrorState error={health.error} onRetry={() => void health.refetch()} />;
  else
    body = (
      <>
        <Tag color={health.data.status === 'ready' ? 'success' : 'error'}>
          {health.data.status === 'ready'
            ? t('dashboard.healthReady')
            : t('dashboard.healthDegraded')}
        </Tag>
        <List
          size="small"
          dataSource={Object.entries(health.data.services)}
          rowKey={([name]) => name}
          renderItem={([name, s]) => (
            <List.Item
              extra={<Tag color={s.status === 'ready' ? 'success' : 'error'}>{s.status}</Tag>}
            >
              {name}
            </List.Item>
          )}
        />
      </>
    );
  return (
    <Card
      title={<h2 style={headingStyle}>{t('dashboard.health')}</h2>}
      data-testid="dashboard-health"
    >
      {body}
    </Card>
  );
}
