import { Button, Input, Space, Tag, Typography, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  systemCalls,
  useSettings,
  useSystemMutation,
  type Setting,
} from '../../../api/systemAdmin';
import { useAuth } from '../../../auth/AuthContext';
import { AdminTable } from '../../admin/shared/AdminTable';
import { ConfirmButton } from '../../admin/shared/ConfirmButton';
import { useListQuery } from '../../admin/shared/listQuery';
import { useNotify } from '../../admin/shared/useNotify';
import { timeOf } from '../shared/format';
import { Wrapped } from '../shared/Wrapped';
import { SettingForm } from './SettingForm';
import { previewOf } from './settingValue';

const FILTERS = ['keyword'] as const;

/** `/system/settings`: the tenant's typed settings, by key. */
export default function SettingsPage() {
  const { t } = useTranslation('system');
  const { can } = useAuth();
  const list = useListQuery(FILTERS);
  const { keyword } = list.filters;
  const settings = useSettings({
    page: list.page,
    page_size: list.page_size,
    ...(keyword ? { keyword } : {}),
  });
  const [editing, setEditing] = useState<Setting | 'new' | null>(null);
  const remove = useSystemMutation(systemCalls.deleteSetting, 'settings');
  const notify = useNotify();
  const mayChange = can('system:setting:update');

  const columns: TableColumnsType<Setting> = [
    {
      title: t('settings.key'),
      key: 'key',
      render: (_, s) => <Typography.Text code>{s.key}</Typography.Text>,
    },
    {
      title: t('settings.type'),
      key: 'type',
      render: (_, s) => <Tag>{t(`settings.types.${s.type}`)}</Tag>,
    },
    {
      title: t('settings.value'),
      key: 'value',
      render: (_, s) =>
        s.type === 'boolean' ? (
          t(s.value === true ? 'settings.on' : 'settings.off')
        ) : (
          <Typography.Text
            ellipsis={{ tooltip: previewOf(s.type, s.value) }}
            style={{ maxWidth: 280, fontFamily: s.type === 'json' ? 'monospace' : undefined }}
          >
            {previewOf(s.type, s.value)}
          </Typography.Text>
        ),
    },
    {
      title: t('settings.description'),
      key: 'description',
      render: (_, s) => <Wrapped width={260}>{s.description}</Wrapped>,
    },
    { title: t('common.updatedAt'), key: 'updated_at', render: (_, s) => timeOf(s.updated_at) },
  ];
  if (mayChange) {
    columns.push({
      title: t('common.actions'),
      key: 'actions',
      render: (_, s) => (
        <Space size={0}>
          <Button size="small" type="link" onClick={() => setEditing(s)}>
            {t('common.edit')}
          </Button>
          <ConfirmButton
            question={t('settings.deleteQuestion', { key: s.key })}
            action={t('common.delete')}
            onConfirm={() =>
              notify(() => remove.mutateAsync(s.key), t('common.deleted', { name: s.key }))
            }
          >
            {t('common.delete')}
          </ConfirmButton>
        </Space>
      ),
    });
  }

  return (
    <>
      <AdminTable<Setting>
        title={t('settings.title')}
        testId="settings-table"
        toolbar={
          <Space wrap>
            <Input.Search
              aria-label={t('settings.keyword')}
              placeholder={t('settings.keyword')}
              defaultValue={keyword}
              allowClear
              onSearch={(v) => list.setFilter('keyword', v.trim())}
              style={{ width: 240 }}
            />
            {mayChange && (
              <Button type="primary" onClick={() => setEditing('new')}>
                {t('settings.create')}
              </Button>
            )}
          </Space>
        }
        query={settings}
        columns={columns}
        rowKey="key"
        page={list.page}
        pageSize={list.page_size}
        onPage={list.setPage}
        emptyText={t('settings.empty')}
      />
      {editing && (
        <SettingForm
          setting={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
        />
      )}
    </>
  );
}
