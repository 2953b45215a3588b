import { Button, Select, Space, Tag, Typography, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useAlerts, type Alert } from '../../../api/monitor';
import { useAuth } from '../../../auth/AuthContext';
import { AdminTable } from '../../admin/shared/AdminTable';
import { useListQuery } from '../../admin/shared/listQuery';
import { ALERT_FILTERS, KINDS, STATUSES, alertQuery } from './alertQuery';
import { tabLink } from '../shared/tabs';
import { StatusTag, useWords } from '../shared/words';

/**
 * The alerts tab: firing and resolved alerts, newest first, filtered by status, kind and rule in
 * the URL; a certificate's alert leads to the certificates tab.
 */
export default function AlertsTab() {
  const { t } = useTranslation('monitor');
  const { can } = useAuth();
  const w = useWords();
  const list = useListQuery(ALERT_FILTERS);
  const filters = alertQuery(list.filters);
  const alerts = useAlerts({ page: list.page, page_size: list.page_size, ...filters });

  const value = (a: Alert) => {
    if (a.value === null) return '-';
    if (a.kind === 'certificate_expiry') return t('alerts.daysLeft', { count: a.value });
    return a.metric ? w.value(a.metric, a.value) : String(a.value);
  };
  const columns: TableColumnsType<Alert> = [
    { title: t('alerts.status'), key: 'status', render: (_, a) => <StatusTag status={a.status} /> },
    {
      title: t('alerts.alert'),
      key: 'title',
      render: (_, a) => (
        <Space direction="vertical" size={0}>
          <span>{a.title}</span>
          {a.kind === 'certificate_expiry' && can('system:cert:list') && (
            <Link to={tabLink('certificates')}>{t('alerts.seeCertificates')}</Link>
          )}
        </Space>
      ),
    },
    { title: t('alerts.kind'), key: 'kind', render: (_, a) => t(`alerts.kinds.${a.kind}`) },
    { title: t('alerts.value'), key: 'value', align: 'right', render: (_, a) => value(a) },
    { title: t('alerts.firedAt'), key: 'fired', render: (_, a) => w.time(a.fired_at) },
    {
      title: t('alerts.resolvedAt'),
      key: 'resolved',
      render: (_, a) => (a.resolved_at ? w.time(a.resolved_at) : '-'),
    },
    {
      title: t('alerts.notifiedAt'),
      key: 'notified',
      render: (_, a) => (a.notified_at ? w.time(a.notified_at) : t('alerts.notNotified')),
    },
  ];

  return (
    <AdminTable<Alert>
      title={t('alerts.title')}
      testId="alerts-table"
      toolbar={
        <Space wrap>
          <Select
            aria-label={t('alerts.status')}
            placeholder={t('alerts.anyStatus')}
            value={filters.status}
            allowClear
            onChange={(v?: string) => list.setFilter('status', v ?? null)}
            options={STATUSES.map((s) => ({ value: s, label: t(`status.${s}`) }))}
            style={{ width: 150 }}
          />
          <Select
            aria-label={t('alerts.kind')}
            placeholder={t('alerts.anyKind')}
            value={filters.kind}
            allowClear
            onChange={(v?: string) => list.setFilter('kind', v ?? null)}
            options={KINDS.map((k) => ({ value: k, label: t(`alerts.kinds.${k}`) }))}
            style={{ width: 180 }}
          />
          {filters.rule_id !== undefined && (
            <Space size={0}>
              <Tag data-testid="rule-filter">{t('alerts.ruleFilter', { id: filters.rule_id })}</Tag>
              <Button size="small" type="link" onClick={() => list.setFilter('rule_id', null)}>
                {t('alerts.everyRule')}
              </Button>
            </Space>
          )}
          <Typography.Text type="secondary">{t('alerts.refreshes')}</Typography.Text>
        </Space>
      }
      query={alerts}
      columns={columns}
      rowKey="id"
      page={list.page}
      pageSize={list.page_size}
      onPage={list.setPage}
      emptyText={t('alerts.empty')}
    />
  );
}
