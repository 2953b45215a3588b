import { PlusOutlined } from '@ant-design/icons';
import { useMutation } from '@tanstack/react-query';
import { Alert, Button, Form, Input, Modal, Select, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import type { Definition } from '../../../api/bpm';
import { createDefinition, fetchDefinitions } from '../../../api/bpmLists';
import { useAuth } from '../../../auth/AuthContext';
import { showServerErrors } from '../../../form/serverErrors';
import { byText, byTime, ServerTable, when } from '../../../components/ServerTable';
import { initialTree } from '../editor/treeEdit';

type Status = Definition['status'];

export default function Definitions() {
  const { t } = useTranslation();
  const { can } = useAuth();
  const [status, setStatus] = useState<Status | undefined>();
  const [keyword, setKeyword] = useState('');
  const [creating, setCreating] = useState(false);
  return (
    <>
      <ServerTable<Definition, { status?: Status; keyword?: string }>
        title={t('nav.designer')}
        queryKey="definitions"
        filters={{ ...(status ? { status } : {}), ...(keyword ? { keyword } : {}) }}
        toolbar={
          <>
            <Input.Search
              allowClear
              aria-label={t('designer.search')}
              placeholder={t('designer.search')}
              onSearch={setKeyword}
              style={{ width: 180, marginRight: 8 }}
            />
            <Select<Status>
              allowClear
              aria-label={t('list.status')}
              placeholder={t('list.status')}
              value={status}
              onChange={setStatus}
              options={(['draft', 'published', 'archived', 'suspended'] as const).map((s) => ({
                value: s,
                label: t(`designer.status.${s}`),
              }))}
              style={{ width: 130, marginRight: 8 }}
            />
            {can('bpm:definition:create') && (
              <Button
                type="primary"
                icon={<PlusOutlined />}
                onClick={() => setCreating(true)}
                data-testid="new-flow"
              >
                {t('designer.newFlow')}
              </Button>
            )}
          </>
        }
        fetch={fetchDefinitions}
        rowKey="id"
        columns={[
          {
            title: t('designer.name'),
            dataIndex: 'name',
            sorter: byText((d: Definition) => d.name),
            render: (v: string, d) => <Link to={`/designer/${d.id}`}>{v}</Link>,
          },
          { title: t('designer.key'), dataIndex: 'key' },
          { title: t('designer.category'), dataIndex: 'category', responsive: ['md'] },
          { title: t('designer.version'), dataIndex: 'version', render: (v: number) => `v${v}` },
          {
            title: t('list.status'),
            dataIndex: 'status',
            render: (s: Status) => (
              <Tag color={s === 'published' ? 'success' : 'default'}>
                {t(`designer.status.${s}`)}
              </Tag>
            ),
          },
          {
            title: t('designer.updated'),
            dataIndex: 'updated_at',
            sorter: byTime((d: Definition) => d.updated_at),
            render: when,
            responsive: ['md'],
          },
        ]}
      />
      {creating && <NewFlow onClose={() => setCreating(false)} />}
    </>
  );
}

function NewFlow({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ key: string; name: string; category?: string }>();
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  const create = useMutation({
    mutationFn: (v: { key: string; name: string; category?: string }) =>
      createDefinition({
        key: v.key,
        name: v.name,
        category: v.category || null,
        // Default node names in the designer's language, as saved.
        node_tree: initialTree({ start: t('node.start'), approval: t('node.approval') }),
      }),
    onSuccess: (d) => navigate(`/designer/${d.id}`),
    onError: (e) => setError(showServerErrors(form, e)),
  });
  return (
    <Modal
      open
      title={t('designer.newFlow')}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t('common.submit')}
      cancelText={t('common.cancel')}
      confirmLoading={create.isPending}
    >
      {error && (
        <Alert role="alert" type="error" title={error} showIcon style={{ marginBottom: 12 }} />
      )}
      <Form form={form} layout="vertical" onFinish={(v) => create.mutate(v)}>
        <Form.Item
          name="key"
          label={t('designer.key')}
          extra={t('designer.keyHint')}
          rules={[
            { required: true, pattern: /^[a-z][a-z0-9_-]{1,63}$/, message: t('designer.keyHint') },
          ]}
        >
          <Input autoFocus data-testid="new-flow-key" />
        </Form.Item>
        <Form.Item
          name="name"
          label={t('designer.name')}
          rules={[
            { required: true, message: t('validation.required', { label: t('designer.name') }) },
          ]}
        >
          <Input data-testid="new-flow-name" />
        </Form.Item>
        <Form.Item name="category" label={t('designer.category')}>
          <Input />
        </Form.Item>
      </Form>
    </Modal>
  );
}
