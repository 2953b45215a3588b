import { Input, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { Task } from '../../../api/bpm';
import { fetchTodo } from '../../../api/bpmLists';
import { DelegatedFromTag, OnBehalfOfTag } from '../../../components/PersonName';
import { ServerTable, when } from '../../../components/ServerTable';
import { BATCH_LIMIT } from '../../../api/taskActions';
import { BatchActions } from './BatchActions';

export default function Todo() {
  const { t } = useTranslation();
  const [key, setKey] = useState('');
  // Picked tasks by id, kept across pages so a batch can span them (at most BATCH_LIMIT).
  const [picked, setPicked] = useState<Map<number, Task>>(new Map());
  return (
    <ServerTable<Task, { definition_key?: string }, 'created_at' | 'title'>
      title={t('nav.todo')}
      queryKey="todo"
      filters={key ? { definition_key: key } : {}}
      toolbar={
        <Space wrap>
          <BatchActions picked={[...picked.values()]} onDone={() => setPicked(new Map())} />
          <Input.Search
            allowClear
            aria-label={t('list.definitionKey')}
            placeholder={t('list.definitionKey')}
            onSearch={setKey}
            style={{ width: 200 }}
          />
        </Space>
      }
      rowSelection={{
        preserveSelectedRowKeys: true,
        selectedRowKeys: [...picked.keys()],
        onChange: (keys, rows) => {
          const known = new Map(picked);
          for (const row of rows) if (row) known.set(row.id, row);
          const next = new Map<number, Task>();
          for (const k of keys) {
            const task = known.get(Number(k));
            if (task) next.set(task.id, task);
          }
          setPicked(next);
        },
        getCheckboxProps: (row) => ({
          disabled: picked.size >= BATCH_LIMIT && !picked.has(row.id),
          'aria-label': t('list.pick', { title: row.instance_title }),
        }),
      }}
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
