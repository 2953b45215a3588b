import { Input, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { Task } from '../../../api/bpm';
import { fetchTodo } from '../../../api/bpmLists';
import { DelegatedFromTag, OnBehalfOfTag } from '../../../components/PersonName';
import { ServerTable, when } from '../../../components/ServerTable';

export default function Todo() {
  const { t } = useTranslation();
  const [key, setKey] = useState('');
  return (
    <ServerTable<Task, { definition_key?: string }, 'created_at' | 'title'>
      title={t('nav.todo')}
      queryKey="todo"
      filters={key ? { definition_key: key } : {}}
      toolbar={
        <Input.Search
          allowClear
          aria-label={t('list.definitionKey')}
          placeholder={t('list.definitionKey')}
          onSearch={setKey}
          style={{ width: 200 }}
        />
      }
      fetch={fetchTodo}
      rowKey="id"
      emptyText={t('list.noTodo')}
      columns={[
        {
          title: t('list.title'),
          dataIndex: 'instance_title',
          key: 'title',
          sorter: true,
          render: (v: string, r) => (
            <Space size={4} wrap>
              <Link to={`/tasks/${r.id}`}>{v}</Link>
              {r.on_behalf_of_id ? <OnBehalfOfTag id={r.on_behalf_of_id} /> : null}
            </Space>
          ),
        },
        { title: t('list.node'), dataIndex: 'node_name' },
        { title: t('list.definition'), dataIndex: 'definition_key', responsive: ['md'] },
        {
          title: t('list.received'),
          dataIndex: 'created_at',
          key: 'created_at',
          sorter: true,
          render: when,
        },
        {
          title: t('list.due'),
          dataIndex: 'due_at',
          responsive: ['md'],
          render: when,
        },
        {
          title: t('list.delegated'),
          dataIndex: 'delegator_id',
          responsive: ['lg'],
          render: (v: number | null) => (v ? <DelegatedFromTag id={v} /> : null),
        },
      ]}
    />
  );
}
