import { Button, Input, Select, Space, Tag, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  systemCalls,
  useNotices,
  useSystemMutation,
  type Notice,
  type NoticeLevel,
} from '../../../api/systemAdmin';
import { useAuth } from '../../../auth/AuthContext';
import { AdminTable } from '../../admin/shared/AdminTable';
import { ConfirmButton } from '../../admin/shared/ConfirmButton';
import { useListQuery } from '../../admin/shared/listQuery';
import { useNotify } from '../../admin/shared/useNotify';
import { timeOf } from '../shared/format';
import { Wrapped } from '../shared/Wrapped';
import { NoticeForm } from './NoticeForm';
import { LEVEL_COLOURS, LEVELS, noticeState, STATE_COLOURS } from './noticeState';

const FILTERS = ['keyword', 'level', 'published'] as const;
const isLevel = (v: string | undefined): v is NoticeLevel => LEVELS.includes(v as NoticeLevel);

/** `/system/notices`: the tenant's notices, drafts included, and whether each shows now. */
export default function NoticesPage() {
  const { t } = useTranslation('system');
  const { can } = useAuth();
  const list = useListQuery(FILTERS);
  const { keyword, level, published } = list.filters;
  const notices = useNotices({
    page: list.page,
    page_size: list.page_size,
    ...(keyword ? { keyword } : {}),
    ...(isLevel(level) ? { level } : {}),
    ...(published === 'true' || published === 'false' ? { published } : {}),
  });
  const [editing, setEditing] = useState<Notice | 'new' | null>(null);
  const update = useSystemMutation(systemCalls.updateNotice, 'notices');
  const remove = useSystemMutation(systemCalls.deleteNotice, 'notices');
  const notify = useNotify();

  const windowOf = (n: Notice) => {
    const from = n.starts_at && timeOf(n.starts_at);
    const until = n.ends_at && timeOf(n.ends_at);
    if (from && until) return t('notice.between', { from, until });
    if (from) return t('notice.from', { from });
    if (until) return t('notice.until', { until });
    return t('notice.always');
  };
  const publishing = (n: Notice) => {
    const title = n.title;
    return n.published ? (
      <ConfirmButton
        question={t('notice.withdrawQuestion', { title })}
        action={t('notice.withdraw')}
        onConfirm={() =>
          notify(
            () => update.mutateAsync({ id: n.id, body: { published: false } }),
            t('notice.withdrawn', { title }),
          )
        }
      >
        {t('notice.withdraw')}
      </ConfirmButton>
    ) : (
      <ConfirmButton
        danger={false}
        question={t('notice.publishQuestion', { title })}
        action={t('notice.publish')}
        onConfirm={() =>
          notify(
            () => update.mutateAsync({ id: n.id, body: { published: true } }),
            t('notice.publishedNow', { title }),
          )
        }
      >
        {t('notice.publish')}
      </ConfirmButton>
    );
  };

  const columns: TableColumnsType<Notice> = [
    {
      title: t('notice.noticeTitle'),
      key: 'title',
      render: (_, n) => <Wrapped width={260}>{n.title}</Wrapped>,
    },
    {
      title: t('notice.level'),
      key: 'level',
      render: (_, n) => <Tag color={LEVEL_COLOURS[n.level]}>{t(`notice.levels.${n.level}`)}</Tag>,
    },
    {
      title: t('notice.state'),
      key: 'state',
      render: (_, n) => {
        const state = noticeState(n);
        return <Tag color={STATE_COLOURS[state]}>{t(`notice.states.${state}`)}</Tag>;
      },
    },
    { title: t('notice.window'), key: 'window', render: (_, n) => windowOf(n) },
    { title: t('common.updatedAt'), key: 'updated_at', render: (_, n) => timeOf(n.updated_at) },
    {
      title: t('common.actions'),
      key: 'actions',
      render: (_, n) => (
        <Space size={0}>
          {can('system:notice:update') && (
            <Button size="small" type="link" onClick={() => setEditing(n)}>
              {t('common.edit')}
            </Button>
          )}
          {can('system:notice:update') && publishing(n)}
          {can('system:notice:delete') && (
            <ConfirmButton
              question={t('notice.deleteQuestion', { title: n.title })}
              action={t('common.delete')}
              onConfirm={() =>
                notify(() => remove.mutateAsync(n.id), t('common.deleted', { name: n.title }))
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
      <AdminTable<Notice>
        title={t('notice.title')}
        testId="notices-table"
        toolbar={
          <Space wrap>
            <Input.Search
              aria-label={t('notice.keyword')}
              placeholder={t('notice.keyword')}
              defaultValue={keyword}
              allowClear
              onSearch={(v) => list.setFilter('keyword', v.trim())}
              style={{ width: 220 }}
            />
            <Select
              aria-label={t('notice.levelFilter')}
              placeholder={t('notice.anyLevel')}
              value={isLevel(level) ? level : undefined}
              allowClear
              onChange={(v?: string) => list.setFilter('level', v ?? null)}
              options={LEVELS.map((v) => ({ value: v, label: t(`notice.levels.${v}`) }))}
              style={{ width: 150 }}
            />
            <Select
              aria-label={t('notice.published')}
              placeholder={t('notice.anyPublished')}
              value={published === 'true' || published === 'false' ? published : undefined}
              allowClear
              onChange={(v?: string) => list.setFilter('published', v ?? null)}
              options={[
                { value: 'true', label: t('notice.onlyPublished') },
                { value: 'false', label: t('notice.onlyDrafts') },
              ]}
              style={{ width: 170 }}
            />
            {can('system:notice:create') && (
              <Button type="primary" onClick={() => setEditing('new')}>
                {t('notice.create')}
              </Button>
            )}
          </Space>
        }
        query={notices}
        columns={columns}
        rowKey="id"
        page={list.page}
        pageSize={list.page_size}
        onPage={list.setPage}
        emptyText={t('notice.empty')}
      />
      {editing && (
        <NoticeForm notice={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />
      )}
    </>
  );
}
