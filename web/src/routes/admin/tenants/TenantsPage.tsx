import { Button, Input, Result, Space, Tag, type TableColumnsType } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  identityCalls,
  useIdentityMutation,
  usePackages,
  useTenants,
  type Tenant,
} from '../../../api/identity';
import { useAuth } from '../../../auth/AuthContext';
import { AdminTable } from '../shared/AdminTable';
import { ConfirmButton } from '../shared/ConfirmButton';
import { useListQuery } from '../shared/listQuery';
import { namesById } from '../shared/names';
import { useNotify } from '../shared/useNotify';
import { PackagesCard } from './PackagesCard';
import { TenantForm } from './TenantForm';

const FILTERS = ['keyword'] as const;

/** `/admin/tenants` (platform administrators): the tenants, their packages and quotas. */
export default function TenantsPage() {
  const { t } = useTranslation('admin');
  const { me } = useAuth();
  const platform = me?.is_platform_admin ?? false;
  const list = useListQuery(FILTERS);
  const { keyword } = list.filters;
  const tenants = useTenants(
    { page: list.page, page_size: list.page_size, ...(keyword ? { keyword } : {}) },
    platform,
  );
  const packages = usePackages(platform);
  const packageNames = useMemo(() => namesById(packages.data, (p) => p.name), [packages.data]);
  const [editing, setEditing] = useState<Tenant | 'new' | null>(null);
  const update = useIdentityMutation(identityCalls.updateTenant, ['tenants']);
  const remove = useIdentityMutation(identityCalls.deleteTenant, ['tenants', 'packages']);
  const notify = useNotify();
  if (!platform) return <Result status="403" title={t('tenants.platformOnly')} />;

  const columns: TableColumnsType<Tenant> = [
    { title: t('tenants.code'), dataIndex: 'code', key: 'code' },
    { title: t('tenants.name'), dataIndex: 'name', key: 'name' },
    {
      title: t('tenants.package'),
      key: 'package',
      render: (_, x) =>
        x.package_id ? (packageNames.get(x.package_id) ?? `#${x.package_id}`) : '-',
    },
    {
      title: t('tenants.quota'),
      key: 'quota',
      render: (_, x) => (x.storage_quota_mb ? `${x.storage_quota_mb} MB` : t('tenants.unlimited')),
    },
    {
      title: t('users.status'),
      key: 'status',
      render: (_, x) => (
        <Tag color={x.status === 'active' ? 'success' : 'default'}>{t(`status.${x.status}`)}</Tag>
      ),
    },
    {
      title: t('common.actions'),
      key: 'actions',
      render: (_, x) => {
        const disabling = x.status === 'active';
        return (
          <Space size={0}>
            <Button size="small" type="link" onClick={() => setEditing(x)}>
              {t('common.edit')}
            </Button>
            <ConfirmButton
              danger={disabling}
              question={t(disabling ? 'tenants.disableQuestion' : 'tenants.enableQuestion', {
                name: x.name,
              })}
              action={t(disabling ? 'tenants.disable' : 'tenants.enable')}
              onConfirm={() =>
                notify(() =>
                  update.mutateAsync({
                    id: x.id,
                    body: { status: disabling ? 'disabled' : 'active' },
                  }),
                )
              }
            >
              {t(disabling ? 'tenants.disable' : 'tenants.enable')}
            </ConfirmButton>
            <ConfirmButton
              question={t('tenants.deleteQuestion', { name: x.name })}
              action={t('common.delete')}
              onConfirm={() =>
                notify(() => remove.mutateAsync(x.id), t('common.deleted', { name: x.name }))
              }
            >
              {t('common.delete')}
            </ConfirmButton>
          </Space>
        );
      },
    },
  ];

  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <AdminTable<Tenant>
        title={t('tenants.title')}
        testId="tenants-table"
        toolbar={
          <Space wrap>
            <Input.Search
              aria-label={t('tenants.keyword')}
              placeholder={t('tenants.keyword')}
              defaultValue={keyword}
              allowClear
              onSearch={(v) => list.setFilter('keyword', v.trim())}
              style={{ width: 240 }}
            />
            <Button type="primary" onClick={() => setEditing('new')}>
              {t('tenants.create')}
            </Button>
          </Space>
        }
        query={tenants}
        columns={columns}
        rowKey="id"
        page={list.page}
        pageSize={list.page_size}
        onPage={list.setPage}
        emptyText={t('tenants.empty')}
      />
      <PackagesCard />
      {editing && (
        <TenantForm tenant={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />
      )}
    </Space>
  );
}
