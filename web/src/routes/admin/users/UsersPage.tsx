import { Button, Input, Select, Space, Tag, type TableColumnsType } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  identityCalls,
  useAllRoles,
  useDepartmentTree,
  useIdentityMutation,
  useUsers,
  type User,
} from '../../../api/identity';
import { useAuth } from '../../../auth/AuthContext';
import { DeptSelect } from '../../../form/DeptSelect';
import { AdminTable } from '../shared/AdminTable';
import { ConfirmButton } from '../shared/ConfirmButton';
import { idFilter, useListQuery } from '../shared/listQuery';
import { flattenTree, namesById } from '../shared/names';
import { useNotify } from '../shared/useNotify';
import { DisableUser } from './DisableUser';
import { UserDrawer } from './UserDrawer';
import { UserFormModal } from './UserFormModal';

const FILTERS = ['keyword', 'dept_id', 'status'] as const;

/** `/admin/users`: the tenant's users, filtered by keyword, department and status. */
export default function UsersPage() {
  const { t } = useTranslation('admin');
  const { can } = useAuth();
  const list = useListQuery(FILTERS);
  const { keyword, status } = list.filters;
  const deptId = idFilter(list.filters.dept_id);
  const users = useUsers({
    page: list.page,
    page_size: list.page_size,
    ...(keyword ? { keyword } : {}),
    ...(deptId ? { dept_id: deptId } : {}),
    ...(status === 'active' || status === 'disabled' ? { status } : {}),
  });
  const roles = useAllRoles();
  const departments = useDepartmentTree();
  const roleNames = useMemo(() => namesById(roles.data?.list, (r) => r.name), [roles.data]);
  const deptNames = useMemo(
    () => namesById(flattenTree(departments.data ?? []), (d) => d.name),
    [departments.data],
  );
  const [editing, setEditing] = useState<User | 'new' | null>(null);
  const [opened, setOpened] = useState<User | null>(null);
  const [disabling, setDisabling] = useState<User | null>(null);
  const notify = useNotify();
  const enable = useIdentityMutation(identityCalls.updateUser, ['users']);
  const remove = useIdentityMutation(identityCalls.deleteUser, ['users']);
  const label = (u: User) => u.nickname || u.username;

  const columns: TableColumnsType<User> = [
    { title: t('users.username'), dataIndex: 'username', key: 'username' },
    { title: t('users.nickname'), dataIndex: 'nickname', key: 'nickname' },
    {
      title: t('users.department'),
      key: 'dept',
      render: (_, u) => (u.dept_id ? (deptNames.get(u.dept_id) ?? `#${u.dept_id}`) : '-'),
    },
    {
      title: t('users.roles'),
      key: 'roles',
      render: (_, u) => u.role_ids.map((id) => <Tag key={id}>{roleNames.get(id) ?? `#${id}`}</Tag>),
    },
    {
      title: t('users.status'),
      key: 'status',
      render: (_, u) => (
        <Tag color={u.status === 'active' ? 'success' : 'default'}>{t(`status.${u.status}`)}</Tag>
      ),
    },
    {
      title: t('common.actions'),
      key: 'actions',
      render: (_, u) => (
        <Space size={0} wrap>
          {can('system:user:update') && (
            <Button size="small" type="link" onClick={() => setEditing(u)}>
              {t('common.edit')}
            </Button>
          )}
          <Button size="small" type="link" onClick={() => setOpened(u)}>
            {t('users.more')}
          </Button>
          {can('system:user:update') &&
            (u.status === 'active' ? (
              <Button size="small" type="link" danger onClick={() => setDisabling(u)}>
                {t('users.disable')}
              </Button>
            ) : (
              <ConfirmButton
                danger={false}
                question={t('users.enableQuestion', { name: label(u) })}
                action={t('users.enable')}
                onConfirm={() =>
                  notify(
                    () => enable.mutateAsync({ id: u.id, body: { status: 'active' } }),
                    t('users.enabled', { name: label(u) }),
                  )
                }
              >
                {t('users.enable')}
              </ConfirmButton>
            ))}
          {can('system:user:delete') && (
            <ConfirmButton
              question={t('users.deleteQuestion', { name: label(u) })}
              action={t('common.delete')}
              onConfirm={() =>
                notify(() => remove.mutateAsync(u.id), t('common.deleted', { name: label(u) }))
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
      <AdminTable<User>
        title={t('users.title')}
        testId="users-table"
        toolbar={
          <Space wrap>
            <Input.Search
              aria-label={t('users.keyword')}
              placeholder={t('users.keyword')}
              defaultValue={keyword}
              allowClear
              onSearch={(v) => list.setFilter('keyword', v.trim())}
              style={{ width: 240 }}
            />
            <DeptSelect
              aria-label={t('users.department')}
              placeholder={t('users.anyDepartment')}
              value={deptId ?? null}
              allowClear
              onChange={(v: number | undefined) => list.setFilter('dept_id', v ?? null)}
              style={{ width: 200 }}
            />
            <Select
              aria-label={t('users.status')}
              placeholder={t('users.anyStatus')}
              value={status}
              allowClear
              onChange={(v?: string) => list.setFilter('status', v ?? null)}
              options={[
                { value: 'active', label: t('status.active') },
                { value: 'disabled', label: t('status.disabled') },
              ]}
              style={{ width: 140 }}
            />
            {can('system:user:create') && (
              <Button type="primary" onClick={() => setEditing('new')}>
                {t('users.create')}
              </Button>
            )}
          </Space>
        }
        query={users}
        columns={columns}
        rowKey="id"
        page={list.page}
        pageSize={list.page_size}
        onPage={list.setPage}
        emptyText={t('users.empty')}
      />
      {editing && (
        <UserFormModal user={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />
      )}
      {disabling && <DisableUser user={disabling} onClose={() => setDisabling(null)} />}
      {opened && <UserDrawer user={opened} onClose={() => setOpened(null)} />}
    </>
  );
}
