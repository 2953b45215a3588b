import { Badge, Segmented } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { fetchCc, useMarkCcRead, type CcItem } from '../../../api/bpmLists';
import { ServerTable, when } from '../../../components/ServerTable';

export default function CcInbox() {
  const { t } = useTranslation();
  const [show, setShow] = useState<'all' | 'unread'>('all');
  const markRead = useMarkCcRead();
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
      fetch={fetchCc}
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
