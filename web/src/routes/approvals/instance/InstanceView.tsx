import { QuestionCircleOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Col, Descriptions, Row, Space } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  useDefinition,
  useInstanceDiagram,
  useInstanceTimeline,
  useStartable,
  type ActionName,
  type FileInfo,
  type FormSchema,
  type InstanceDetail,
  type Task,
} from '../../../api/bpm';
import { usePeople } from '../../../api/people';
import { useAuth } from '../../../auth/AuthContext';
import { RouteDiagram, type PeopleByNode } from '../../../diagram/RouteDiagram';
import { walkTree } from '../../../diagram/tree';
import { ActionBar } from './ActionBar';
import { ExplainModal } from './ExplainModal';
import { FormValues } from './FormValues';
import { personLabel } from '../../../form/personLabel';
import { Timeline } from './Timeline';
import { StatusTag } from '../../../components/StatusTag';
import { ErrorState, LoadingState } from '../../../components/states';

/**
 * The definition's form schema, for labels and types: the detail answer carries only the values.
 * Read from the definition when the caller may list definitions, else from what they may start.
 * `pending` while the answer that would hold it has not come.
 */
function useFormSchema(instance: InstanceDetail | undefined): {
  schema: FormSchema | null;
  pending: boolean;
} {
  const { can } = useAuth();
  const mayList = can('bpm:definition:list');
  const startable = useStartable();
  const definition = useDefinition(instance?.definition_id, mayList);
  if (definition.data) return { schema: definition.data.form_schema, pending: false };
  const fromStartable = startable.data?.find((d) => d.id === instance?.definition_id);
  return {
    schema: fromStartable?.form_schema ?? null,
    pending: mayList ? definition.isPending : startable.isPending,
  };
}

export function InstanceView({
  instance,
  actions,
  taskId,
  taskNodeId = null,
  task = null,
  refetch,
  refreshFiles,
}: {
  instance: InstanceDetail;
  actions: ActionName[];
  taskId: number | null;
  /** The node of the caller's task: its `editableFields` can be changed on approval. */
  taskNodeId?: string | null;
  /** The caller's task this page is about: held on behalf of someone, it says so. */
  task?: Task | null;
  refetch: () => void;
  /** Fetches the detail again and answers its `files` (fresh download links). */
  refreshFiles?: () => Promise<Record<string, FileInfo[]> | undefined>;
}) {
  const { t } = useTranslation();
  const { me } = useAuth();
  const { schema, pending: schemaPending } = useFormSchema(instance);
  const [explain, setExplain] = useState(false);
  const diagram = useInstanceDiagram(instance.id);
  const timeline = useInstanceTimeline(instance.id);

  const editableFields = useMemo(() => {
    let fields: string[] = [];
    if (diagram.data && taskNodeId)
      walkTree(diagram.data.tree, (n) => {
        if (n.id === taskNodeId && n.editableFields) fields = n.editableFields;
      });
    return fields;
  }, [diagram.data, taskNodeId]);
  // An action's form is built from the schema and the node's editable fields when it opens: a
  // click before they are known would open an approval without the fields it may change (and,
  // had they come while it was open, with those fields empty, the initiator's files dropped).
  const actionsReady = !schemaPending && !(taskNodeId && diagram.isPending);

  // Holders (and those they stand in for) by name from the people directory.
  const directory = usePeople(
    instance.tasks.flatMap((task) => [task.assignee_id, task.on_behalf_of_id]),
  );
  const nameOf = (id: number) => personLabel(t, directory, id);
  const people = useMemo<PeopleByNode>(() => {
    // Names we know without the directory: the timeline's operators, the initiator, the caller.
    const names = new Map<number, string>();
    for (const e of timeline.data ?? [])
      if (e.operator_id) names.set(e.operator_id, e.operator_name);
    if (instance.initiator_name) names.set(instance.initiator_id, instance.initiator_name);
    if (me) names.set(me.id, me.nickname || me.username);
    for (const [id, person] of directory.byId) names.set(id, person.name);
    const name = (id: number) => names.get(id) ?? t('people.user', { id });
    const out: PeopleByNode = {};
    for (const task of instance.tasks) {
      if (task.status === 'canceled') continue;
      const who = task.on_behalf_of_id
        ? t('people.onBehalfShort', {
            name: name(task.assignee_id),
            of: name(task.on_behalf_of_id),
          })
        : name(task.assignee_id);
      const list = (out[task.node_id] ??= []);
      if (!list.includes(who)) list.push(who);
    }
    return out;
  }, [
    timeline.data,
    me,
    instance.initiator_id,
    instance.initiator_name,
    instance.tasks,
    directory.byId,
    t,
  ]);

  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
      <Card
        title={
          <Space wrap>
            <span data-testid="instance-title">{instance.title}</span>
            <StatusTag status={instance.status} />
          </Space>
        }
        extra={
          taskId !== null && (
            <Button
              icon={<QuestionCircleOutlined />}
              onClick={() => setExplain(true)}
              data-testid="explain"
            >
              {t('explain.button')}
            </Button>
          )
        }
      >
        {task?.on_behalf_of_id && (
          <Alert
            type="info"
            showIcon
            style={{ marginBottom: 12 }}
            data-testid="on-behalf-of"
            title={t('detail.onBehalfOf', { name: nameOf(task.on_behalf_of_id) })}
            description={t('detail.onBehalfOfHint', { name: nameOf(task.on_behalf_of_id) })}
          />
        )}
        {instance.suspend_reason && (
          <Alert
            type="warning"
            showIcon
            style={{ marginBottom: 12 }}
            title={t('detail.suspended')}
            description={instance.suspend_reason.detail}
          />
        )}
        <Descriptions size="small" column={{ xs: 1, md: 3 }} style={{ marginBottom: 12 }}>
          <Descriptions.Item label={t('list.definition')}>
            {instance.definition_key} v{instance.definition_version}
          </Descriptions.Item>
          <Descriptions.Item label={t('list.started')}>
            {new Date(instance.created_at).toLocaleString()}
          </Descriptions.Item>
          <Descriptions.Item label={t('detail.initiator')}>
            <span data-testid="instance-initiator">
              {instance.initiator_name ?? t('people.user', { id: instance.initiator_id })}
            </span>
          </Descriptions.Item>
        </Descriptions>
        <FormValues
          form={instance.form}
          schema={schema}
          files={instance.files}
          refreshFiles={refreshFiles}
        />
        <div style={{ marginTop: 16 }}>
          <ActionBar
            instance={instance}
            actions={actions}
            taskId={taskId}
            schema={schema}
            editableFields={editableFields}
            ready={actionsReady}
            onDone={refetch}
          />
        </div>
      </Card>
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={14}>
          <Card title={t('detail.route')} styles={{ body: { padding: 0 } }}>
            {diagram.isPending ? (
              <LoadingState />
            ) : diagram.isError ? (
              <ErrorState error={diagram.error} />
            ) : (
              <RouteDiagram tree={diagram.data.tree} people={people} />
            )}
          </Card>
        </Col>
        <Col xs={24} lg={10}>
          <Card title={t('detail.timeline')}>
            {timeline.isPending ? (
              <LoadingState />
            ) : timeline.isError ? (
              <ErrorState error={timeline.error} />
            ) : (
              <Timeline entries={timeline.data} />
            )}
          </Card>
        </Col>
      </Row>
      {explain && taskId !== null && (
        <ExplainModal taskId={taskId} onClose={() => setExplain(false)} />
      )}
    </Space>
  );
}
