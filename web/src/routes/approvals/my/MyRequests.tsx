import { Select } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { InstanceDetail } from '../../../api/bpm';
import { fetchMyInstances } from '../../../api/bpmLists';
import { StatusTag } from '../../../components/StatusTag';
import { ServerTable, when } from '../../../components/ServerTable';

const STATUSES = [
  'running',
  'suspended',
  'approved',
  'rejected',
  'canceled',
  'terminated',
] as const;
type Status = (typeof STATUSES)[number];

export default function MyRequests() {
  const { t } = useTranslation();
  const [status, setStatus] = useState<Status | undefined>();
  return (
    <ServerTable<InstanceDetail, { status?: Status }, 'created_at' | 'updated_at' | 'title'>
      title={t('nav.my')}
      queryKey="my"
      filters={status ? { status } : {}}
      toolbar={
        <Select<Status>
          allowClear
          aria-label={t('list.status')}
          placeholder={t('list.status')}
          value={status}
          onChange={setStatus}
          options={STATUSES.map((s) => ({ value: s, label: t(`status.${s}`) }))}
          style={{ width: 150 }}
        />
      }
      fetch={fetchMyInstances}
      rowKey="id"
      columns={[
        {
          title: t('list.title'),
          dataIndex: 'title',
          key: 'title',
          sorter: true,
          render: (v: string, r) => <Link to={`/instances/${r.id}`}>{v}</Link>,
        },
        { title: t('list.definition'), dataIndex: 'definition_key', responsive: ['md'] },
        {
          title: t('list.status'),
          dataIndex: 'status',
          render: (v: string) => <StatusTag status={v} />,
        },
        {
          title: t('list.started'),
          dataIndex: 'created_at',
          key: 'created_at',
          sorter: true,
          render: when,
        },
        { title: t('list.finished'), dataIndex: 'finished_at', responsive: ['md'], render: when },
      ]}
    />
  );
}
