import { Tabs, Tag } from 'antd';
import { lazy, Suspense, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useAlerts, useJobHeartbeats, useServiceHealth } from '../../api/monitor';
import { useAuth } from '../../auth/AuthContext';
import { LoadingState } from '../../components/states';
import { HealthTab } from './health/HealthTab';
import { monitorTabs, type MonitorTab } from './shared/tabs';

// The charts' echarts loads only when the trends tab opens.
const TrendsTab = lazy(() => import('./trends/TrendsTab'));
const RulesTab = lazy(() => import('./rules/RulesTab'));
const AlertsTab = lazy(() => import('./alerts/AlertsTab'));
const CertificatesTab = lazy(() => import('./certificates/CertificatesTab'));

/** A tab's label with what needs attention in it, in words (never a colour or a bare number). */
function Label({ text, note }: { text: string; note?: string }) {
  return (
    <span>
      {text}
      {note && ' '}
      {note && (
        <Tag color="error" style={{ marginInlineStart: 8, marginInlineEnd: 0 }}>
          {note}
        </Tag>
      )}
    </span>
  );
}

/**
 * `/monitor` (platform administrators holding the monitor codes): the services' health and the
 * jobs' heartbeats, metric trends, alert rules, alerts and the edge certificates, one tab each
 * (`?tab=`), each shown only to a caller holding its code. A tab's label says what needs
 * attention in it: services down and jobs late or failing, alerts firing, certificates expiring.
 */
export default function MonitorPage() {
  const { t } = useTranslation('monitor');
  const { can } = useAuth();
  const [params, setParams] = useSearchParams();
  const tabs = monitorTabs(can);
  const asked = params.get('tab');
  const tab: MonitorTab | undefined = tabs.find((x) => x === asked) ?? tabs[0];

  const services = useServiceHealth(can('monitor:service:list'));
  const jobs = useJobHeartbeats(can('monitor:job:list'));
  const alertsAllowed = can('monitor:alert:list');
  const firing = useAlerts({ status: 'firing', page: 1, page_size: 1 }, alertsAllowed);
  const expiring = useAlerts(
    { status: 'firing', kind: 'certificate_expiry', page: 1, page_size: 1 },
    alertsAllowed && can('system:cert:list'),
  );
  const problems =
    (services.data ?? []).filter((s) => s.status === 'down').length +
    (jobs.data ?? []).filter((j) => j.status !== 'ok').length;
  const count = (n: number | undefined, key: string) => (n ? t(key, { count: n }) : undefined);

  const content: Record<MonitorTab, { label: ReactNode; body: ReactNode }> = {
    health: {
      label: <Label text={t('tabs.health')} note={count(problems, 'tabs.problems')} />,
      body: <HealthTab />,
    },
    trends: { label: <Label text={t('tabs.trends')} />, body: <TrendsTab /> },
    rules: { label: <Label text={t('tabs.rules')} />, body: <RulesTab /> },
    alerts: {
      label: <Label text={t('tabs.alerts')} note={count(firing.data?.total, 'tabs.firing')} />,
      body: <AlertsTab />,
    },
    certificates: {
      label: (
        <Label text={t('tabs.certificates')} note={count(expiring.data?.total, 'tabs.expiring')} />
      ),
      body: <CertificatesTab />,
    },
  };

  return (
    <>
      <h1 style={{ margin: '0 0 8px', fontSize: 20 }}>{t('title')}</h1>
      <Tabs
        activeKey={tab}
        // Another tab's list starts afresh: its page and filters are not this one's.
        onChange={(next) => setParams(next === tabs[0] ? {} : { tab: next })}
        destroyOnHidden
        items={tabs.map((key) => ({
          key,
          label: content[key].label,
          children: <Suspense fallback={<LoadingState />}>{content[key].body}</Suspense>,
        }))}
      />
    </>
  );
}
