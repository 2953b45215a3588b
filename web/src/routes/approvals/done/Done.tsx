import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { Task } from '../../../api/bpm';
import { fetchDone } from '../../../api/bpmLists';
import { ServerTable, when } from '../../../components/ServerTable';

export default function Done() {
  const { t } = useTranslation();
  return (
    <ServerTable<Task, object, 'created_at' | 'finished_at' | 'title'>
      title={t('nav.done')}
      queryKey="done"
      filters={{}}
      fetch={fetchDone}
      rowKey="id"
      columns={[
        {
          title: t('list.title'),
          dataIndex: 'instance_title',
          key: 'title',
          sorter: true,
          render: (v: string, r) => <Link to={`/instances/${r.instance_id}`}>{v}</Link>,
        },
        { title: t('list.node'), dataIndex: 'node_name' },
        {
          title: t('list.result'),
          dataIndex: 'result',
          filters: [
            'approved',
            'rejected',
            'returned',
            'resolved',
            'auto_approved',
            'auto_rejected',
          ].map((r) => ({ text: t(`result.${r}`), value: r })),
          onFilter: (value, r) => r.result === value,
          render: (v: string | null) => (v ? <Tag>{t(`result.${v}`)}</Tag> : '-'),
        },
        { title: t('list.comment'), dataIndex: 'comment', responsive: ['md'], ellipsis: true },
        {
          title: t('list.finished'),
          dataIndex: 'finished_at',
          key: 'finished_at',
          sorter: true,
          render: when,
        },
      ]}
    />
  );
}
