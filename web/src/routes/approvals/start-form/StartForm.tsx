import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Col, Form, Input, Row, Space, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { previewStart, startRequest } from '../../../api/definitions';
import { useIdempotencyKey } from '../../../api/idempotency';
import type { ApprovalNode, Definition, FlowNode, SimulateResult } from '../../../api/bpm';
import { walkTree } from '../../../diagram/tree';
import { FormRenderer } from '../../../form/FormRenderer';
import { toSubmission } from '../../../form/rules';
import { showServerErrors } from '../../../form/serverErrors';
import { PersonPicker } from '../../../form/PersonPicker';
import { RoutePreview } from '../../../components/RoutePreview';
import { useStartable } from '../../../api/bpm';
import { EmptyState, ErrorState, LoadingState } from '../../../components/states';

/** Approval nodes whose approvers the initiator picks (`initiator_selected`). */
function selectableNodes(tree: FlowNode | undefined): ApprovalNode[] {
  const out: ApprovalNode[] = [];
  if (tree)
    walkTree(tree, (n) => {
      if (n.type === 'approval' && n.assignee.type === 'initiator_selected') out.push(n);
    });
  return out;
}

export default function StartForm() {
  const { t } = useTranslation();
  const { id } = useParams();
  const startable = useStartable();
  const definition = startable.data?.find((d) => d.id === Number(id));
  if (startable.isPending) return <LoadingState />;
  if (startable.isError)
    return <ErrorState error={startable.error} onRetry={() => void startable.refetch()} />;
  if (!definition)
    return (
      <Card>
        <EmptyState text={t('start.notStartable')} />
      </Card>
    );
  return <StartDefinition definition={definition} />;
}

function StartDefinition({ definition }: { definition: Definition }) {
  const { t } = useTranslation();
  const [form] = Form.useForm();
  const navigate = useNavigate();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const [preview, setPreview] = useState<SimulateResult | null>(null);
  const selectable = useMemo(() => selectableNodes(definition.node_tree), [definition]);
  const schema = definition.form_schema ?? { fields: [] };

  const body = (values: Record<string, unknown>) => {
    const selected: Record<string, number[]> = {};
    for (const node of selectable) {
      const ids = values[`__approvers_${node.id}`] as number[] | undefined;
      if (ids?.length) selected[node.id] = ids;
    }
    return {
      form: toSubmission(schema, values),
      selected_assignees: selected,
      title: (values.__title as string | undefined) || undefined,
    };
  };

  const simulate = useMutation({
    mutationFn: async () => {
      const values = await form.validateFields();
      return previewStart(definition.id, body(values));
    },
    onSuccess: setPreview,
    onError: (err) => {
      if (err && typeof err === 'object' && 'errorFields' in err) return;
      setError(showServerErrors(form, err));
    },
  });

  const idempotency = useIdempotencyKey();
  const start = useMutation({
    mutationFn: (values: Record<string, unknown>) =>
      startRequest(definition.id, body(values), idempotency.headers()),
    onSettled: (_data, error) => idempotency.settled(error ?? undefined),
    onSuccess: async (instance) => {
      message.success(t('start.started'));
      await queryClient.invalidateQueries({ queryKey: ['list'] });
      await navigate(`/instances/${instance.id}`);
    },
    onError: (err) => setError(showServerErrors(form, err)),
  });

  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} lg={14}>
        <Card title={t('start.title', { name: definition.name })}>
          {error && (
            <Alert
              role="alert"
              type="error"
              title={error}
              showIcon
              closable
              style={{ marginBottom: 16 }}
              onClose={() => setError(null)}
            />
          )}
          <Form
            form={form}
            layout="vertical"
            onFinish={(v) => {
              if (!start.isPending) start.mutate(v);
            }}
            onValuesChange={() => setPreview(null)}
          >
            <Form.Item
              name="__title"
              label={t('start.requestTitle')}
              extra={t('start.requestTitleHint')}
            >
              <Input maxLength={200} />
            </Form.Item>
            <FormRenderer schema={schema} />
            {selectable.map((node) => (
              <Form.Item
                key={node.id}
                name={`__approvers_${node.id}`}
                label={t('start.pickApprovers', { node: node.name })}
                rules={[
                  { required: true, message: t('validation.required', { label: node.name }) },
                ]}
              >
                <PersonPicker multiple aria-label={t('start.pickApprovers', { node: node.name })} />
              </Form.Item>
            ))}
            <Space wrap>
              <Button onClick={() => simulate.mutate()} loading={simulate.isPending}>
                {t('start.preview')}
              </Button>
              <Button type="primary" htmlType="submit" loading={start.isPending}>
                {t('start.submit')}
              </Button>
            </Space>
          </Form>
        </Card>
      </Col>
      <Col xs={24} lg={10}>
        <Card title={t('start.routePreview')}>
          {preview ? (
            <RoutePreview tree={definition.node_tree} schema={schema} result={preview} />
          ) : (
            <Typography.Text type="secondary">{t('start.previewHint')}</Typography.Text>
          )}
        </Card>
      </Col>
    </Row>
  );
}
