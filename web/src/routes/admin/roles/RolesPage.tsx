import { Button, Input, Space, Typography, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { identityCalls, useIdentityMutation, useRoles, type Role } from '../../../api/identity';
import { useAuth } from '../../../auth/AuthContext';
import { AdminTable } from '../shared/AdminTable';
import { ConfirmButton } from '../shared/ConfirmButton';
import { useListQuery } from '../shared/listQuery';
import { useNotify } from '../shared/useNotify';
import { RoleForm } from './RoleForm';

const FILTERS = ['keyword'] as const;

/** `/admin/roles`: the tenant's roles and what each grants. */
export default function RolesPage() {
  const { t } = useTranslation('admin');
  const { can } = useAuth();
  const list = useListQuery(FILTERS);
  const { keyword } = list.filters;
  const roles = useRoles({
    page: list.page,
    page_size: list.page_size,
    ...(keyword ? { keyword } : {}),
  });
  const [editing, setEditing] = useState<Role | 'new' | null>(null);
  const remove = useIdentityMutation(identityCalls.deleteRole, ['roles']);
  const notify = useNotify();

  const columns: TableColumnsType<Role> = [
    { title: t('roles.code'), dataIndex: 'code', key: 'code' },
    { title: t('roles.name'), dataIndex: 'name', key: 'name' },
    {
      title: t('roles.permissions'),
      key: 'permissions',
      render: (_, r) => (
        <Typography.Text type="secondary">
          {r.permissions.includes('*')
            ? t('roles.everything')
            : t('roles.chosen', { count: r.permissions.length })}
        </Typography.Text>
      ),
    },
    {
      title: t('common.actions'),
      key: 'actions',
      render: (_, r) => (
        <Space size={0}>
          {can('system:role:update') && (
            <Button size="small" type="link" onClick={() => setEditing(r)}>
              {t('common.edit')}
            </Button>
          )}
          {can('system:role:delete') && (
            <ConfirmButton
              question={t('roles.deleteQuestion', { name: r.name })}
              action={t('common.delete')}
              onConfirm={() =>
                notify(() => remove.mutateAsync(r.id), t('common.deleted', { name: r.name }))
              }
            >
              {t('common.delete')}
            </ConfirmButton>
          )}
        </Space>
      ),
    },
  ];

  return (
    <>
      <AdminTable<Role>
        title={t('roles.title')}
        testId="roles-table"
        toolbar={
          <Space wrap>
            <Input.Search
              aria-label={t('roles.keyword')}
              placeholder={t('roles.keyword')}
              defaultValue={keyword}
              allowClear
              onSearch={(v) => list.setFilter('keyword', v.trim())}
              style={{ width: 240 }}
            />
            {can('system:role:create') && (
              <Button type="primary" onClick={() => setEditing('new')}>
                {t('roles.create')}
              </Button>
            )}
          </Space>
        }
        query={roles}
        columns={columns}
        rowKey="id"
        page={list.page}
        pageSize={list.page_size}
        onPage={list.setPage}
        emptyText={t('roles.empty')}
      />
      {editing && (
        <RoleForm role={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />
      )}
    </>
  );
}
