import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Badge, Segmented } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api, data } from '../../../api/client';
import { bpmKeys, type Page } from '../../../api/bpm';
import { ServerTable, when } from '../../../components/ServerTable';

interface CcItem {
  id: number;
  instance_id: number;
  node_id: string;
  read: boolean;
  read_at: string | null;
  created_at: string;
  instance_title: string;
}

export default function CcInbox() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [show, setShow] = useState<'all' | 'unread'>('all');
  const markRead = useMutation({
    mutationFn: (id: number) => api.POST('/api/v1/bpm/cc/{id}/read', { params: { path: { id } } }),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: bpmKeys.ccUnread });
      void queryClient.invalidateQueries({ queryKey: ['list', 'cc'] });
    },
  });
  return (
    <ServerTable<CcItem, { unread?: 'true' }, 'created_at' | 'title'>
      title={t('nav.cc')}
      queryKey="cc"
      filters={show === 'unread' ? { unread: 'true' } : {}}
      toolbar={
        <Segmented
          aria-label={t('cc.show')}
          value={show}
          onChange={(v) => setShow(v as 'all' | 'unread')}
          options={[
            { value: 'all', label: t('cc.all') },
            { value: 'unread', label: t('cc.unread') },
          ]}
        />
      }
      fetch={(query) =>
        data(api.GET('/api/v1/bpm/cc/my', { params: { query } })) as Promise<Page<CcItem>>
      }
      rowKey="id"
      columns={[
        {
          title: t('list.title'),
          dataIndex: 'instance_title',
          key: 'title',
          sorter: true,
          render: (v: string, r) => (
            <Link
              to={`/instances/${r.instance_id}`}
              onClick={() => !r.read && markRead.mutate(r.id)}
            >
              {v}
            </Link>
          ),
        },
        {
          title: t('cc.state'),
          dataIndex: 'read',
          render: (v: boolean) => (
            <Badge status={v ? 'default' : 'processing'} text={v ? t('cc.read') : t('cc.unread')} />
          ),
        },
        {
          title: t('list.received'),
          dataIndex: 'created_at',
          key: 'created_at',
          sorter: true,
          render: when,
        },
      ]}
    />
  );
}
