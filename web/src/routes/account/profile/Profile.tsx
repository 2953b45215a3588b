import { Card, Descriptions, Space, Table, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMyLoginLogs, type LoginLog } from '../../../api/account';
import { useAuth } from '../../../auth/AuthContext';
import { useDepartments } from '../../../api/people';
import { ErrorState } from '../../../components/states';
import { AccountSections } from './AccountSections';
import { OutOfOfficeCard } from './OutOfOfficeCard';

function DeptName({ id }: { id: number }) {
  const { t } = useTranslation();
  const departments = useDepartments();
  return departments.data?.find((d) => d.id === id)?.name ?? t('people.dept', { id });
}

export default function Profile() {
  const { t } = useTranslation();
  const { me } = useAuth();
  const [page, setPage] = useState({ page: 1, page_size: 10 });
  const logs = useMyLoginLogs(page);
  return (
    <Space orientation="vertical" style={{ width: '100%' }} size="middle">
      <Card title={t('profile.title')}>
        <Descriptions column={{ xs: 1, md: 2 }}>
          <Descriptions.Item label={t('profile.username')}>{me?.username}</Descriptions.Item>
          <Descriptions.Item label={t('profile.nickname')}>{me?.nickname}</Descriptions.Item>
          <Descriptions.Item label={t('profile.tenant')}>{me?.tenant_id}</Descriptions.Item>
          <Descriptions.Item label={t('profile.dept')}>
            {me?.dept_id ? <DeptName id={me.dept_id} /> : '-'}
          </Descriptions.Item>
        </Descriptions>
      </Card>
      <OutOfOfficeCard />
      <AccountSections />
      <Card title={t('profile.loginHistory')}>
        {logs.isError ? (
          <ErrorState error={logs.error} onRetry={() => void logs.refetch()} />
        ) : (
          <Table<LoginLog>
            rowKey="id"
            size="small"
            loading={logs.isPending}
            dataSource={logs.data?.list ?? []}
            scroll={{ x: 720 }}
            pagination={{
              current: page.page,
              pageSize: page.page_size,
              total: logs.data?.total ?? 0,
              onChange: (p, s) => setPage({ page: p, page_size: s }),
            }}
            columns={[
              {
                title: t('profile.time'),
                dataIndex: 'created_at',
                render: (v: string) => new Date(v).toLocaleString(),
              },
              {
                title: t('profile.result'),
                dataIndex: 'success',
                render: (v: boolean, r) =>
                  v ? (
                    <Tag color="success">{t('profile.success')}</Tag>
                  ) : (
                    <Tag color="error">
                      {r.reason ? t(`profile.reason.${r.reason}`, r.reason) : t('profile.failed')}
                    </Tag>
                  ),
              },
              { title: t('profile.ip'), dataIndex: 'ip' },
              { title: t('profile.location'), dataIndex: 'location' },
              {
                title: t('profile.device'),
                render: (_, r) => [r.browser, r.os, r.device].filter(Boolean).join(' · '),
              },
              {
                title: t('profile.newDevice'),
                dataIndex: 'new_device',
                render: (v: boolean) =>
                  v ? <Tag color="warning">{t('profile.newDevice')}</Tag> : null,
              },
            ]}
          />
        )}
      </Card>
    </Space>
  );
}
