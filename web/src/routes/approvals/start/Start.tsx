import { Card, Col, Row, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useStartable, type Definition } from '../../../api/bpm';
import { EmptyState, ErrorState, LoadingState } from '../../../components/states';

export default function Start() {
  const { t } = useTranslation();
  const startable = useStartable();
  if (startable.isPending) return <LoadingState />;
  if (startable.isError)
    return <ErrorState error={startable.error} onRetry={() => void startable.refetch()} />;
  if (startable.data.length === 0)
    return (
      <Card>
        <EmptyState text={t('start.none')} />
      </Card>
    );
  const groups = new Map<string, Definition[]>();
  for (const d of startable.data) {
    const category = d.category || t('start.uncategorized');
    groups.set(category, [...(groups.get(category) ?? []), d]);
  }
  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <Typography.Title level={4} style={{ margin: 0 }}>
        {t('nav.start')}
      </Typography.Title>
      {[...groups].map(([category, list]) => (
        <section key={category} aria-label={category}>
          <Typography.Title level={5}>{category}</Typography.Title>
          <Row gutter={[16, 16]}>
            {list.map((d) => (
              <Col key={d.id} xs={24} sm={12} lg={8} xl={6}>
                <Link to={`/start/${d.id}`}>
                  <Card hoverable size="small" title={d.name} data-testid={`startable-${d.key}`}>
                    <Space wrap>
                      <Tag>{d.key}</Tag>
                      <Tag>v{d.version}</Tag>
                      <Typography.Text type="secondary">
                        {t('start.fields', { count: d.form_schema?.fields?.length ?? 0 })}
                      </Typography.Text>
                    </Space>
                  </Card>
                </Link>
              </Col>
            ))}
          </Row>
        </section>
      ))}
    </Space>
  );
}
