import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Form, Space, Table, Tabs, Tag, Typography } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import {
  newDefinitionVersion,
  publishDefinition,
  saveDefinition,
  simulateDefinition,
} from '../../../api/definitions';
import type { Branch, Definition, FlowNode, FormSchema, SimulateResult } from '../../../api/bpm';
import { ApiError, messageOf } from '../../../api/errors';
import { FormRenderer } from '../../../form/FormRenderer';
import { PersonPicker } from '../../../form/PersonPicker';
import { toSubmission } from '../../../form/rules';
import { RoutePreview } from '../../../components/RoutePreview';
import { ErrorState, LoadingState, MissingRecord } from '../../../components/states';
import { recordId, useDefinition } from '../../../api/bpm';
import { useDefinitionVersions } from '../../../api/bpmLists';
import { FlowEditor } from './FlowEditor';
import { FormDesigner } from './FormDesigner';
import { NodeDrawer } from './NodeDrawer';
import { SettingsTab } from './SettingsTab';
import type { Starters } from './StartersEditor';
import {
  addBranch,
  editBranch,
  insertAfter,
  insertInBranch,
  newNode,
  removeBranch,
  removeNode,
  updateNode,
  type NewNodeType,
} from './treeEdit';

/** Server problems split by where they point: `node_tree.<id>` and `form_schema.fields[i]...`. */
function splitProblems(error: unknown) {
  const nodes: Record<string, string[]> = {};
  const fields: Record<number, string[]> = {};
  const other: string[] = [];
  if (error instanceof ApiError) {
    for (const p of error.fields) {
      const node = /^node_tree\.(.+)$/.exec(p.field);
      const field = /^form_schema\.fields\[(\d+)\]/.exec(p.field);
      if (node) (nodes[node[1]!] ??= []).push(p.message);
      else if (field) (fields[Number(field[1])] ??= []).push(p.message);
      else other.push(p.message);
    }
  }
  return { nodes, fields, other };
}

/** `/designer/:id`: one flow's editor; an id that cannot be one never reaches the API. */
export default function Designer() {
  const id = recordId(useParams().id);
  if (id === null) return <MissingRecord backTo="/designer" />;
  return <DesignerOf id={id} />;
}

function DesignerOf({ id }: { id: number }) {
  const definition = useDefinition(id);
  if (definition.isPending) return <LoadingState />;
  if (definition.isError)
    return (
      <ErrorState
        error={definition.error}
        onRetry={() => void definition.refetch()}
        backTo="/designer"
      />
    );
  return (
    <DesignerFor
      key={`${definition.data.id}-${definition.data.updated_at}`}
      definition={definition.data}
    />
  );
}

function DesignerFor({ definition }: { definition: Definition }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [tree, setTree] = useState<FlowNode>(definition.node_tree);
  const [schema, setSchema] = useState<FormSchema>(definition.form_schema ?? { fields: [] });
  const [name, setName] = useState(definition.name);
  const [category, setCategory] = useState(definition.category ?? '');
  // All lists empty (or none) means everyone: shown as such.
  const [starters, setStarters] = useState<Starters>(() => {
    const s = definition.starters ?? {};
    return [s.user_ids, s.role_ids, s.dept_ids].some((l) => l?.length) ? s : {};
  });
  const [selected, setSelected] = useState<{ node?: FlowNode; branch?: Branch } | null>(null);
  const [problem, setProblem] = useState<unknown>(null);
  const [dryRun, setDryRun] = useState<SimulateResult | null>(null);
  /** Who the dry run starts the request as (none: the designer). */
  const [starter, setStarter] = useState<number | undefined>();
  const [sample] = Form.useForm();
  const editable = definition.status === 'draft';
  const problems = useMemo(() => splitProblems(problem), [problem]);
  const names = {
    approval: t('node.approval'),
    cc: t('node.cc'),
    branch: t('node.branch'),
    otherwise: t('designer.otherwise'),
    condition: t('node.branch-arm'),
  };

  useEffect(() => setProblem(null), [tree, schema]);

  const save = useMutation({
    mutationFn: () =>
      saveDefinition(definition.id, {
        name,
        category: category || null,
        form_schema: schema,
        node_tree: tree,
        starters,
      }),
    onSuccess: () => message.success(t('designer.saved')),
    onError: setProblem,
  });
  const publish = useMutation({
    mutationFn: async () => {
      await save.mutateAsync();
      return publishDefinition(definition.id);
    },
    onSuccess: async (published) => {
      message.success(t('designer.published'));
      // Published all the same; what may keep requests from deciding their route is said once.
      for (const warning of published.warnings) message.warning(warning.message, 10);
      await queryClient.invalidateQueries({ queryKey: ['bpm'] });
    },
    onError: setProblem,
  });
  const newVersion = useMutation({
    mutationFn: () => newDefinitionVersion(definition.id),
    onSuccess: (d) => navigate(`/designer/${d.id}`),
    onError: (e) => message.error(messageOf(e)),
  });
  const simulate = useMutation({
    mutationFn: async () => {
      if (editable) await save.mutateAsync();
      const values = await sample.validateFields();
      // The route as the chosen starter would meet it (their department, their leaders);
      // without one, as the designer themself.
      return simulateDefinition(definition.id, {
        form: toSubmission(schema, values),
        ...(starter ? { initiator_id: starter } : {}),
      });
    },
    onSuccess: setDryRun,
    onError: (e) => {
      if (e && typeof e === 'object' && 'errorFields' in e) return;
      setProblem(e);
    },
  });
  const versions = useDefinitionVersions(definition.key);

  const banner = problem ? (
    <Alert
      type="error"
      showIcon
      role="alert"
      title={messageOf(problem)}
      description={problems.other.length ? problems.other.join(' ') : undefined}
      style={{ marginBottom: 12 }}
      data-testid="designer-error"
    />
  ) : null;

  return (
    <Card
      title={
        <Space wrap>
          <Link to="/designer">{t('nav.designer')}</Link>/<span>{definition.name}</span>
          <Tag>{definition.key}</Tag>
          <Tag>v{definition.version}</Tag>
          <Tag color={definition.status === 'published' ? 'success' : 'default'}>
            {t(`designer.status.${definition.status}`)}
          </Tag>
        </Space>
      }
      extra={
        <Space wrap>
          {editable ? (
            <>
              <Button
                onClick={() => save.mutate()}
                loading={save.isPending}
                data-testid="designer-save"
              >
                {t('designer.saveDraft')}
              </Button>
              <Button
                type="primary"
                onClick={() => publish.mutate()}
                loading={publish.isPending}
                data-testid="designer-publish"
              >
                {t('designer.publish')}
              </Button>
            </>
          ) : (
            <Button onClick={() => newVersion.mutate()} loading={newVersion.isPending}>
              {t('designer.newVersion')}
            </Button>
          )}
        </Space>
      }
    >
      {!editable && (
        <Alert type="info" showIcon title={t('designer.readOnly')} style={{ marginBottom: 12 }} />
      )}
      {banner}
      <Tabs
        items={[
          {
            key: 'flow',
            label: t('designer.tab.flow'),
            children: (
              <FlowEditor
                tree={tree}
                readOnly={!editable}
                schema={schema}
                problems={problems.nodes}
                onSelect={(s) => editable && setSelected(s)}
                onInsertAfter={(nodeId, type: NewNodeType) =>
                  editable && setTree(insertAfter(tree, nodeId, newNode(type, names)))
                }
                onInsertInBranch={(branchId, type) =>
                  editable && setTree(insertInBranch(tree, branchId, newNode(type, names)))
                }
                onRemove={(nodeId) => editable && setTree(removeNode(tree, nodeId))}
                onAddBranch={(nodeId) =>
                  editable && setTree(addBranch(tree, nodeId, names.condition))
                }
                onRemoveBranch={(branchId) => editable && setTree(removeBranch(tree, branchId))}
              />
            ),
          },
          {
            key: 'form',
            label: t('designer.tab.form'),
            children: (
              <FormDesigner
                schema={schema}
                onChange={(s) => editable && setSchema(s)}
                problems={problems.fields}
              />
            ),
          },
          {
            key: 'settings',
            label: t('designer.tab.settings'),
            children: (
              <SettingsTab
                name={name}
                onName={setName}
                category={category}
                onCategory={setCategory}
                starters={starters}
                onStarters={setStarters}
                tree={tree}
                onTree={setTree}
                editable={editable}
              />
            ),
          },
          {
            key: 'dry-run',
            label: t('designer.tab.dryRun'),
            children: (
              <Space orientation="vertical" style={{ width: '100%' }}>
                <Typography.Text type="secondary">{t('designer.dryRunHint')}</Typography.Text>
                <Form layout="vertical" style={{ maxWidth: 480 }} component="div">
                  <Form.Item
                    label={t('designer.dryRunStarter')}
                    htmlFor="dry-run-starter"
                    extra={t('designer.dryRunStarterHint')}
                  >
                    <PersonPicker
                      id="dry-run-starter"
                      value={starter}
                      onChange={(v: number | undefined) => setStarter(v)}
                      allowClear
                    />
                  </Form.Item>
                </Form>
                <Form form={sample} layout="vertical" style={{ maxWidth: 480 }}>
                  <FormRenderer schema={schema} />
                </Form>
                <Button
                  onClick={() => simulate.mutate()}
                  loading={simulate.isPending}
                  data-testid="designer-dry-run"
                >
                  {t('designer.runDry')}
                </Button>
                {dryRun && <RoutePreview tree={tree} schema={schema} result={dryRun} />}
              </Space>
            ),
          },
          {
            key: 'versions',
            label: t('designer.tab.versions'),
            children: versions.isError ? (
              <ErrorState error={versions.error} />
            ) : (
              <Table<Definition>
                rowKey="id"
                size="small"
                loading={versions.isPending}
                dataSource={[...(versions.data?.list ?? [])].sort((a, b) => b.version - a.version)}
                pagination={false}
                columns={[
                  {
                    title: t('designer.version'),
                    dataIndex: 'version',
                    render: (v: number, d) => <Link to={`/designer/${d.id}`}>v{v}</Link>,
                  },
                  {
                    title: t('list.status'),
                    dataIndex: 'status',
                    render: (s: string) => t(`designer.status.${s}`),
                  },
                  {
                    title: t('designer.publishedAt'),
                    dataIndex: 'published_at',
                    render: (v: string | null) => (v ? new Date(v).toLocaleString() : '-'),
                  },
                ]}
              />
            ),
          },
        ]}
      />
      {selected && (
        <NodeDrawer
          target={selected}
          schema={schema}
          onClose={() => setSelected(null)}
          onNode={(nodeId, patch) => setTree(updateNode(tree, nodeId, patch))}
          onBranch={(branchId, patch) =>
            setTree(editBranch(tree, branchId, (b) => ({ ...b, ...patch })))
          }
        />
      )}
    </Card>
  );
}
