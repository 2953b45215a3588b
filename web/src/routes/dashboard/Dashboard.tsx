import { Col, Row, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../../auth/AuthContext';
import { HealthCard, StuckCard, TodayCard } from './AdminCards';
import { MyOpenRequestsCard, MyTodoCard } from './MyWorkCards';
import { NoticesCard } from './NoticesCard';

/**
 * `/`: where a user lands after signing in. Everyone sees their tasks (with the one waiting
 * longest), their open requests and the notices in effect; platform administrators also see
 * today's figures, the stuck requests and the platform's health.
 */
export default function Dashboard() {
  const { t } = useTranslation();
  const { me } = useAuth();
  return (
    <>
      <Typography.Title level={1} style={{ fontSize: 20, marginTop: 0 }}>
        {t('dashboard.title')}
      </Typography.Title>
      <Row gutter={[16, 16]}>
        <Col xs={24}>
          <NoticesCard />
        </Col>
        <Col xs={24} lg={12}>
          <MyTodoCard />
        </Col>
        <Col xs={24} lg={12}>
          <MyOpenRequestsCard />
        </Col>
        {me?.is_platform_admin && (
          <>
            <Col xs={24}>
              <TodayCard />
            </Col>
            <Col xs={24} lg={12}>
              <StuckCard />
            </Col>
            <Col xs={24} lg={12}>
              <HealthCard />
            </Col>
          </>
        )}
      </Row>
    </>
  );
}
