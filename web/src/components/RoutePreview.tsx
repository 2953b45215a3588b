import { Alert, List, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { FlowNode, FormSchema, SimulateResult } from '../api/bpm';
import { usePeople } from '../api/people';
import { walkTree } from '../diagram/tree';
import { personLabel } from '../form/personLabel';
import { useConditionNames } from '../routes/designer/editor/useConditionNames';
import { branchDecisions } from './routeWords';

/**
 * The server's dry run, in words: which way each branch went and why ("Amount ¥480.00 is not
 * over ¥1,000.00", then the arm taken), who approves each step by name, and what stops the
 * route, never the raw condition or failure objects.
 */
export function RoutePreview({
  tree,
  schema,
  result,
}: {
  tree: FlowNode;
  schema: FormSchema;
  result: SimulateResult;
}) {
  const { t } = useTranslation();
  const names = new Map<string, string>();
  walkTree(tree, (n) => names.set(n.id, n.name));
  const nameOf = (id: string) => names.get(id) ?? id;
  const conditionNames = useConditionNames(tree, schema);
  // Approvers by name; one away shows as their stand-in acting for them.
  const people = usePeople(
    result.nodes.flatMap((n) => [...n.assignees, ...(n.stand_ins ?? []).map((s) => s.user_id)]),
  );
  const person = (id: number) => personLabel(t, people, id);
  const approver = (n: SimulateResult['nodes'][number], id: number) => {
    const away = n.stand_ins?.find((s) => s.stand_in_id === id);
    return away
      ? t('people.onBehalfShort', { name: person(id), of: person(away.user_id) })
      : person(id);
  };
  const decisions = branchDecisions(t, tree, schema, result.branches, conditionNames);
  const failures = (result.failures as { node_id?: string; code?: string; detail?: string }[]).map(
    (f) =>
      f.code === 'condition_failed' || f.code === 'empty_assignee'
        ? t(`preview.failure.${f.code}`, { node: nameOf(f.node_id ?? '') })
        : `${nameOf(f.node_id ?? '')}: ${f.detail ?? f.code ?? ''}`,
  );
  const strategyText = (strategy: unknown) =>
    typeof strategy === 'string' && ['suspend', 'auto_pass', 'fallback_users'].includes(strategy)
      ? t(`preview.strategy.${strategy}`)
      : t('preview.strategy.suspend');
  return (
    <Space orientation="vertical" style={{ width: '100%' }} data-testid="route-preview">
      {failures.length > 0 && (
        <Alert
          type="warning"
          showIcon
          title={t('preview.failures')}
          description={failures.join('; ')}
        />
      )}
      <Typography.Text strong>{t('preview.path')}</Typography.Text>
      <Space wrap>
        {result.path.map((id, i) => (
          <Tag key={`${id}-${i}`}>{nameOf(id)}</Tag>
        ))}
      </Space>
      {decisions.length > 0 && (
        <>
          <Typography.Text strong>{t('preview.branches')}</Typography.Text>
          <List
            size="small"
            dataSource={decisions}
            rowKey="nodeId"
            renderItem={(d) => (
              <List.Item data-testid={`preview-branch-${d.nodeId}`}>
                <Space orientation="vertical" size={0}>
                  {d.reasons.map((r, i) => (
                    <span key={i}>{r}</span>
                  ))}
                  <span>
                    {d.nodeName} → <strong>{d.taken ?? '-'}</strong>
                  </span>
                </Space>
              </List.Item>
            )}
          />
        </>
      )}
      <Typography.Text strong>{t('preview.approvers')}</Typography.Text>
      <List
        size="small"
        dataSource={result.nodes}
        renderItem={(n) => (
          <List.Item>
            <span>
              {n.node_name ?? nameOf(n.node_id)}:{' '}
              {n.assignees.length
                ? n.assignees.map((id) => approver(n, id)).join(', ')
                : t('preview.nobody', { strategy: strategyText(n.strategy) })}
            </span>
          </List.Item>
        )}
      />
    </Space>
  );
}
