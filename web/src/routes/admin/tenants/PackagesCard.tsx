import { Button, Card, Space, Table, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  identityCalls,
  useIdentityMutation,
  usePackages,
  type Package,
} from '../../../api/identity';
import { EmptyState, ErrorState } from '../../../components/states';
import { ConfirmButton } from '../shared/ConfirmButton';
import { useNotify } from '../shared/useNotify';
import { PackageForm } from './PackageForm';

/** Tenant packages: what each allows (menus, storage) and how many tenants are on it. */
export function PackagesCard() {
  const { t } = useTranslation('admin');
  const packages = usePackages();
  const [editing, setEditing] = useState<Package | 'new' | null>(null);
  const remove = useIdentityMutation(identityCalls.deletePackage, ['packages']);
  const notify = useNotify();
  return (
    <Card
      title={t('packages.title')}
      extra={
        <Button onClick={() => setEditing('new')} type="primary">
          {t('packages.create')}
        </Button>
      }
      styles={{ body: { padding: 12 } }}
    >
      {packages.isError ? (
        <ErrorState error={packages.error} onRetry={() => void packages.refetch()} />
      ) : (
        <Table<Package>
          rowKey="id"
          size="middle"
          loading={packages.isFetching}
          dataSource={packages.data ?? []}
          pagination={false}
          scroll={{ x: 'max-content' }}
          locale={{
            emptyText: packages.isPending ? ' ' : <EmptyState text={t('packages.empty')} />,
          }}
          columns={[
            { title: t('packages.name'), dataIndex: 'name', key: 'name' },
            { title: t('packages.menus'), key: 'menus', render: (_, p) => p.menu_ids.length },
            {
              title: t('tenants.quota'),
              key: 'quota',
              render: (_, p) =>
                p.storage_quota_mb ? `${p.storage_quota_mb} MB` : t('tenants.unlimited'),
            },
            { title: t('packages.tenants'), dataIndex: 'tenants', key: 'tenants' },
            {
              title: t('packages.status'),
              key: 'status',
              render: (_, p) => (
                <Tag color={p.status === 'active' ? 'success' : 'default'}>
                  {t(`status.${p.status}`)}
                </Tag>
              ),
            },
            {
              title: t('common.actions'),
              key: 'actions',
              render: (_, p) => (
                <Space size={0}>
                  <Button size="small" type="link" onClick={() => setEditing(p)}>
                    {t('common.edit')}
                  </Button>
                  <ConfirmButton
                    question={t('packages.deleteQuestion', { name: p.name })}
                    action={t('common.delete')}
                    onConfirm={() =>
                      notify(() => remove.mutateAsync(p.id), t('common.deleted', { name: p.name }))
                    }
                  >
                    {t('common.delete')}
                  </ConfirmButton>
                </Space>
              ),
            },
          ]}
        />
      )}
      {editing && (
        <PackageForm pkg={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />
      )}
    </Card>
  );
}
