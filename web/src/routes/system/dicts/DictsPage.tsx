import { Button, Input, Space, Typography, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { systemCalls, useDicts, useSystemMutation, type Dict } from '../../../api/systemAdmin';
import { useAuth } from '../../../auth/AuthContext';
import { AdminTable } from '../../admin/shared/AdminTable';
import { ConfirmButton } from '../../admin/shared/ConfirmButton';
import { useListQuery } from '../../admin/shared/listQuery';
import { useNotify } from '../../admin/shared/useNotify';
import { timeOf } from '../shared/format';
import { DictForm } from './DictForm';
import { DictItemsDrawer } from './DictItemsDrawer';

const FILTERS = ['keyword'] as const;

/** `/system/dicts`: the tenant's dictionaries (the options selects read) and their items. */
export default function DictsPage() {
  const { t } = useTranslation('system');
  const { can } = useAuth();
  const list = useListQuery(FILTERS);
  const { keyword } = list.filters;
  const dicts = useDicts({
    page: list.page,
    page_size: list.page_size,
    ...(keyword ? { keyword } : {}),
  });
  const [editing, setEditing] = useState<Dict | 'new' | null>(null);
  const [itemsOf, setItemsOf] = useState<Dict | null>(null);
  const remove = useSystemMutation(systemCalls.deleteDict, 'dicts');
  const notify = useNotify();

  const columns: TableColumnsType<Dict> = [
    {
      title: t('dicts.code'),
      key: 'code',
      render: (_, d) => <Typography.Text code>{d.code}</Typography.Text>,
    },
    { title: t('dicts.name'), dataIndex: 'name', key: 'name' },
    { title: t('dicts.itemCount'), key: 'items', render: (_, d) => d.items.length },
    { title: t('common.updatedAt'), key: 'updated_at', render: (_, d) => timeOf(d.updated_at) },
    {
      title: t('common.actions'),
      key: 'actions',
      render: (_, d) => (
        <Space size={0}>
          <Button size="small" type="link" onClick={() => setItemsOf(d)}>
            {t('dicts.items')}
          </Button>
          {can('system:dict:update') && (
            <Button size="small" type="link" onClick={() => setEditing(d)}>
              {t('common.edit')}
            </Button>
          )}
          {can('system:dict:delete') && (
            <ConfirmButton
              question={t('dicts.deleteQuestion', {
                name: d.name,
                code: d.code,
                count: d.items.length,
              })}
              action={t('common.delete')}
              onConfirm={() =>
                notify(() => remove.mutateAsync(d.id), t('common.deleted', { name: d.name }))
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
      <AdminTable<Dict>
        title={t('dicts.title')}
        testId="dicts-table"
        toolbar={
          <Space wrap>
            <Input.Search
              aria-label={t('dicts.keyword')}
              placeholder={t('dicts.keyword')}
              defaultValue={keyword}
              allowClear
              onSearch={(v) => list.setFilter('keyword', v.trim())}
              style={{ width: 240 }}
            />
            {can('system:dict:create') && (
              <Button type="primary" onClick={() => setEditing('new')}>
                {t('dicts.create')}
              </Button>
            )}
          </Space>
        }
        query={dicts}
        columns={columns}
        rowKey="id"
        page={list.page}
        pageSize={list.page_size}
        onPage={list.setPage}
        emptyText={t('dicts.empty')}
      />
      {editing && (
        <DictForm
          dict={editing === 'new' ? null : editing}
          onCreated={can('system:dict:update') ? setItemsOf : undefined}
          onClose={() => setEditing(null)}
        />
      )}
      {itemsOf && (
        <DictItemsDrawer
          dict={itemsOf}
          editable={can('system:dict:update')}
          onClose={() => setItemsOf(null)}
        />
      )}
    </>
  );
}
