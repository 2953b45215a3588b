import { Input, Select, Space, Tag, Tooltip, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLoginLogs, type LoginLog } from '../../../api/audit';
import { useAuth } from '../../../auth/AuthContext';
import { AdminTable } from '../../admin/shared/AdminTable';
import { useListQuery } from '../../admin/shared/listQuery';
import { ClearLogs } from '../shared/ClearLogs';
import { LOGIN_FILTERS, loginQuery } from '../shared/queries';
import { TimeRange } from '../shared/TimeRange';
import { LoginTrend } from './LoginTrend';

const LOGIN_TYPES = ['password', 'github', 'google', 'totp'] as const;

/** `/audit/logins`: sign-ins, filtered in the URL, with the 7-day trend and new devices flagged. */
export default function LoginsPage() {
  const { t } = useTranslation('audit');
  const { can } = useAuth();
  const list = useListQuery(LOGIN_FILTERS);
  const filters = loginQuery(list.filters);
  const logs = useLoginLogs({ page: list.page, page_size: list.page_size, ...filters });
  const typeName = (type: string) => t(`logins.types.${type}`, { defaultValue: type });

  const columns: TableColumnsType<LoginLog> = [
    {
      title: t('common.time'),
      key: 'created_at',
      render: (_, l) => new Date(l.created_at).toLocaleString(),
    },
    { title: t('logins.username'), dataIndex: 'username', key: 'username' },
    { title: t('logins.type'), key: 'type', render: (_, l) => typeName(l.login_type) },
    {
      title: t('logins.result'),
      key: 'success',
      render: (_, l) =>
        l.success ? (
          <Tag color="success">{t('logins.succeeded')}</Tag>
        ) : (
          <Tooltip title={l.reason}>
            <Tag color="error">{t('logins.failed')}</Tag>
          </Tooltip>
        ),
    },
    { title: t('logins.reason'), key: 'reason', render: (_, l) => l.reason ?? '' },
    { title: t('logins.ip'), key: 'ip', render: (_, l) => l.ip ?? '' },
    { title: t('logins.location'), key: 'location', render: (_, l) => l.location ?? '' },
    {
      title: t('logins.device'),
      key: 'device',
      render: (_, l) => (
        <Space size={4} wrap>
          {[l.device, l.os, l.browser].filter(Boolean).join(' · ')}
          {l.new_device && <Tag color="warning">{t('logins.newDevice')}</Tag>}
        </Space>
      ),
    },
  ];

  return (
    <>
      <LoginTrend />
      <AdminTable<LoginLog>
        title={t('logins.title')}
        testId="login-logs-table"
        toolbar={
          <Space wrap>
            <Input.Search
              key={`username-${list.filters.username ?? ''}`}
              aria-label={t('logins.username')}
              placeholder={t('logins.username')}
              defaultValue={list.filters.username}
              allowClear
              onSearch={(v) => list.setFilter('username', v.trim())}
              style={{ width: 200 }}
            />
            <Select
              aria-label={t('logins.result')}
              placeholder={t('logins.anyResult')}
              value={filters.success}
              allowClear
              onChange={(v?: string) => list.setFilter('success', v ?? null)}
              options={[
                { value: 'true', label: t('logins.succeeded') },
                { value: 'false', label: t('logins.failed') },
              ]}
              style={{ width: 140 }}
            />
            <Select
              aria-label={t('logins.type')}
              placeholder={t('logins.anyType')}
              value={filters.login_type}
              allowClear
              onChange={(v?: string) => list.setFilter('login_type', v ?? null)}
              options={LOGIN_TYPES.map((type) => ({ value: type, label: typeName(type) }))}
              style={{ width: 160 }}
            />
            <Input.Search
              key={`ip-${list.filters.ip ?? ''}`}
              aria-label={t('logins.ip')}
              placeholder={t('logins.ip')}
              defaultValue={list.filters.ip}
              allowClear
              onSearch={(v) => list.setFilter('ip', v.trim())}
              style={{ width: 160 }}
            />
            <TimeRange />
            {can('system:log:login:clear') && <ClearLogs kind="logins" />}
          </Space>
        }
        query={logs}
        columns={columns}
        rowKey="id"
        page={list.page}
        pageSize={list.page_size}
        onPage={list.setPage}
        emptyText={t('logins.empty')}
      />
    </>
  );
}
