import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Card, Dropdown, Space, Tag, theme, Typography } from 'antd';
import { createContext, useContext } from 'react';
import { useTranslation } from 'react-i18next';
import type { Branch, FlowNode, FormSchema } from '../../../api/bpm';
import { conditionText, type ConditionNames } from './conditions';
import { conditionWords } from '../../../components/routeWords';
import { useConditionNames } from './useConditionNames';
import { resubmitSummary, timeoutSummary } from './timeout';
import type { NewNodeType } from './treeEdit';

/** Names of the people and departments the conditions compare with. */
const NamesContext = createContext<ConditionNames | undefined>(undefined);

export interface FlowEditorProps {
  tree: FlowNode;
  /** Published and archived versions: shown, not edited. */
  readOnly: boolean;
  schema: FormSchema;
  /** Publish problems by node or branch id. */
  problems: Record<string, string[]>;
  onSelect: (target: { node?: FlowNode; branch?: Branch }) => void;
  onInsertAfter: (nodeId: string, type: NewNodeType) => void;
  onInsertInBranch: (branchId: string, type: NewNodeType) => void;
  onRemove: (nodeId: string) => void;
  onAddBranch: (branchNodeId: string) => void;
  onRemoveBranch: (branchId: string) => void;
}

/** The node tree drawn top to bottom, with an add button below every node and arm. */
export function FlowEditor(props: FlowEditorProps) {
  const names = useConditionNames(props.tree, props.schema);
  return (
    <NamesContext.Provider value={names}>
      <div style={{ overflowX: 'auto', padding: 16 }}>
        <div
          style={{
            display: 'flex',
            flexDirection: 'column',
            alignItems: 'center',
            minWidth: 'max-content',
          }}
        >
          <Chain node={props.tree} {...props} />
          <EndMark />
        </div>
      </div>
    </NamesContext.Provider>
  );
}

function Connector() {
  const { token } = theme.useToken();
  return <div style={{ width: 2, height: 24, background: token.colorBorder }} />;
}

function EndMark() {
  const { t } = useTranslation();
  return <Tag style={{ marginTop: 4 }}>{t('diagram.end')}</Tag>;
}

function AddButton({ onAdd, label }: { onAdd: (type: NewNodeType) => void; label: string }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  return (
    <div style={{ display: 'flex', flexDirection: 'column', alignItems: 'center' }}>
      <div style={{ width: 2, height: 12, background: token.colorBorder }} />
      <Dropdown
        trigger={['click']}
        menu={{
          items: (['approval', 'cc', 'branch'] as const).map((type) => ({
            key: type,
            label: t(`designer.add.${type}`),
          })),
          onClick: ({ key }) => onAdd(key as NewNodeType),
        }}
      >
        <Button shape="circle" size="small" icon={<PlusOutlined />} aria-label={label} />
      </Dropdown>
      <div style={{ width: 2, height: 12, background: token.colorBorder }} />
    </div>
  );
}

function Chain({ node, ...props }: FlowEditorProps & { node: FlowNode | null | undefined }) {
  const { t } = useTranslation();
  if (!node) return null;
  const problems = props.problems[node.id] ?? [];
  return (
    <>
      {node.type === 'branch' ? (
        <BranchBlock node={node} {...props} />
      ) : (
        <Card
          size="small"
          hoverable
          data-testid={`designer-node-${node.id}`}
          role="button"
          tabIndex={0}
          onClick={() => props.onSelect({ node })}
          onKeyDown={(e) => e.key === 'Enter' && props.onSelect({ node })}
          style={{ width: 240, borderColor: problems.length ? 'red' : undefined }}
          title={
            <Space>
              <Tag
                color={node.type === 'start' ? 'blue' : node.type === 'cc' ? 'purple' : 'warning'}
              >
                {t(`node.${node.type}`)}
              </Tag>
              <span>{node.name}</span>
            </Space>
          }
          extra={
            node.type !== 'start' &&
            !props.readOnly && (
              <Button
                type="text"
                size="small"
                icon={<DeleteOutlined />}
                aria-label={t('designer.removeNode', { name: node.name })}
                onClick={(e) => {
                  e.stopPropagation();
                  props.onRemove(node.id);
                }}
              />
            )
          }
        >
          <NodeSummary node={node} schema={props.schema} />
          <Problems list={problems} />
        </Card>
      )}
      {props.readOnly ? (
        <Connector />
      ) : (
        <AddButton
          onAdd={(type) => props.onInsertAfter(node.id, type)}
          label={t('designer.addAfter', { name: node.name })}
        />
      )}
      <Chain {...props} node={node.child} />
    </>
  );
}

function NodeSummary({ node, schema }: { node: FlowNode; schema: FormSchema }) {
  const { t } = useTranslation();
  if (node.type === 'start') {
    const resubmit = resubmitSummary(node.resubmitTimeout);
    return (
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {t('designer.initiator')}
        {resubmit && (
          <span style={{ display: 'block' }} data-testid="start-resubmit-summary">
            {t(`designer.deadline.${resubmit.key}`, resubmit.params)}
          </span>
        )}
      </Typography.Text>
    );
  }
  if (node.type === 'approval' || node.type === 'cc') {
    const a = node.assignee;
    const labelOf = (key: string) => schema.fields.find((f) => f.key === key)?.label ?? key;
    const who =
      a.type === 'users'
        ? t('designer.rule.usersN', { count: a.userIds.length })
        : a.type === 'roles'
          ? t('designer.rule.rolesN', { count: a.roleIds.length })
          : a.type === 'form_user'
            ? t('designer.rule.formUserOf', { field: labelOf(a.field) })
            : t(`designer.rule.${a.type}`);
    const deadline = node.type === 'approval' ? timeoutSummary(node.timeout) : null;
    const final = deadline?.params.final;
    return (
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {who}
        {node.type === 'approval' && ` · ${t(`designer.mode.${node.mode}`)}`}
        {deadline && (
          <span style={{ display: 'block' }} data-testid={`deadline-${node.id}`}>
            {t(`designer.deadline.${deadline.key}`, {
              ...deadline.params,
              ...(final ? { final: t(`designer.finalDo.${final}`) } : {}),
            })}
          </span>
        )}
      </Typography.Text>
    );
  }
  return null;
}

function BranchBlock({
  node,
  ...props
}: FlowEditorProps & { node: Extract<FlowNode, { type: 'branch' }> }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const names = useContext(NamesContext);
  const problems = props.problems[node.id] ?? [];
  return (
    <div
      data-testid={`designer-node-${node.id}`}
      style={{
        border: `1px dashed ${problems.length ? 'red' : token.colorBorder}`,
        borderRadius: 8,
        padding: 8,
      }}
    >
      <Space style={{ width: '100%', justifyContent: 'center', marginBottom: 8 }} wrap>
        <Tag color="success">{t('node.branch')}</Tag>
        <Button size="small" onClick={() => props.onSelect({ node })}>
          {node.name}
        </Button>
        {!props.readOnly && (
          <>
            <Button size="small" icon={<PlusOutlined />} onClick={() => props.onAddBranch(node.id)}>
              {t('designer.addBranch')}
            </Button>
            <Button
              size="small"
              type="text"
              icon={<DeleteOutlined />}
              aria-label={t('designer.removeNode', { name: node.name })}
              onClick={() => props.onRemove(node.id)}
            />
          </>
        )}
      </Space>
      {problems.map((p) => (
        <Typography.Text
          key={p}
          type="danger"
          style={{ display: 'block', fontSize: 12 }}
          role="alert"
        >
          {p}
        </Typography.Text>
      ))}
      <div style={{ display: 'flex', gap: 16, alignItems: 'flex-start' }}>
        {node.branches.map((b) => {
          const armProblems = props.problems[b.id] ?? [];
          return (
            <div
              key={b.id}
              style={{ display: 'flex', flexDirection: 'column', alignItems: 'center' }}
            >
              <Card
                size="small"
                hoverable
                data-testid={`designer-branch-${b.id}`}
                role="button"
                tabIndex={0}
                onClick={() => props.onSelect({ branch: b })}
                onKeyDown={(e) => e.key === 'Enter' && props.onSelect({ branch: b })}
                style={{ width: 200, borderColor: armProblems.length ? 'red' : undefined }}
                title={b.name}
                extra={
                  !b.default &&
                  !props.readOnly && (
                    <Button
                      type="text"
                      size="small"
                      icon={<DeleteOutlined />}
                      aria-label={t('designer.removeBranch', { name: b.name })}
                      onClick={(e) => {
                        e.stopPropagation();
                        props.onRemoveBranch(b.id);
                      }}
                    />
                  )
                }
              >
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {b.default
                    ? t('designer.otherwise')
                    : conditionText(b.condition, props.schema, names, conditionWords(t))}
                </Typography.Text>
                <Problems list={armProblems} />
              </Card>
              {props.readOnly ? (
                <Connector />
              ) : (
                <AddButton
                  onAdd={(type) => props.onInsertInBranch(b.id, type)}
                  label={t('designer.addAfter', { name: b.name })}
                />
              )}
              <Chain {...props} node={b.child} />
            </div>
          );
        })}
      </div>
    </div>
  );
}

/** The server's publish problems for one node or branch, each announced where it happened. */
function Problems({ list }: { list: string[] }) {
  return list.map((p) => (
    <Typography.Text key={p} type="danger" style={{ display: 'block', fontSize: 12 }} role="alert">
      {p}
    </Typography.Text>
  ));
}
