import { Button, Input, Select, Space, Tag, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { identityCalls, useIdentityMutation, usePosts, type Post } from '../../../api/identity';
import { useAuth } from '../../../auth/AuthContext';
import { AdminTable } from '../shared/AdminTable';
import { ConfirmButton } from '../shared/ConfirmButton';
import { useListQuery } from '../shared/listQuery';
import { useNotify } from '../shared/useNotify';
import { PostForm } from './PostForm';

const FILTERS = ['keyword', 'status'] as const;

/** `/admin/posts`: the tenant's posts (job positions) and how many hold each. */
export default function PostsPage() {
  const { t } = useTranslation('admin');
  const { can } = useAuth();
  const list = useListQuery(FILTERS);
  const { keyword, status } = list.filters;
  const posts = usePosts({
    page: list.page,
    page_size: list.page_size,
    ...(keyword ? { keyword } : {}),
    ...(status === 'active' || status === 'disabled' ? { status } : {}),
  });
  const [editing, setEditing] = useState<Post | 'new' | null>(null);
  const remove = useIdentityMutation(identityCalls.deletePost, ['posts']);
  const notify = useNotify();

  const columns: TableColumnsType<Post> = [
    { title: t('posts.code'), dataIndex: 'code', key: 'code' },
    { title: t('posts.name'), dataIndex: 'name', key: 'name' },
    { title: t('posts.sort'), dataIndex: 'sort', key: 'sort' },
    { title: t('posts.holders'), dataIndex: 'holders', key: 'holders' },
    {
      title: t('posts.status'),
      key: 'status',
      render: (_, p) => (
        <Tag color={p.status === 'active' ? 'success' : 'default'}>{t(`status.${p.status}`)}</Tag>
      ),
    },
    {
      title: t('common.actions'),
      key: 'actions',
      render: (_, p) => (
        <Space size={0}>
          {can('system:post:update') && (
            <Button size="small" type="link" onClick={() => setEditing(p)}>
              {t('common.edit')}
            </Button>
          )}
          {can('system:post:delete') && (
            <ConfirmButton
              question={t('posts.deleteQuestion', { name: p.name })}
              action={t('common.delete')}
              onConfirm={() =>
                notify(() => remove.mutateAsync(p.id), t('common.deleted', { name: p.name }))
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
      <AdminTable<Post>
        title={t('posts.title')}
        testId="posts-table"
        toolbar={
          <Space wrap>
            <Input.Search
              aria-label={t('posts.keyword')}
              placeholder={t('posts.keyword')}
              defaultValue={keyword}
              allowClear
              onSearch={(v) => list.setFilter('keyword', v.trim())}
              style={{ width: 240 }}
            />
            <Select
              aria-label={t('posts.status')}
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
            {can('system:post:create') && (
              <Button type="primary" onClick={() => setEditing('new')}>
                {t('posts.create')}
              </Button>
            )}
          </Space>
        }
        query={posts}
        columns={columns}
        rowKey="id"
        page={list.page}
        pageSize={list.page_size}
        onPage={list.setPage}
        emptyText={t('posts.empty')}
      />
      {editing && (
        <PostForm post={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />
      )}
    </>
  );
}
