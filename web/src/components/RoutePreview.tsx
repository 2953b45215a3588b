import { Alert, List, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { FlowNode, SimulateResult } from '../api/bpm';
import { usePeople } from '../api/people';
import { walkTree } from '../diagram/tree';
import { personLabel } from '../form/personLabel';

/** The server's dry run, in words: which way each branch went and why, and who approves. */
export function RoutePreview({ tree, result }: { tree: FlowNode; result: SimulateResult }) {
  const { t } = useTranslation();
  const names = new Map<string, string>();
  walkTree(tree, (n) => {
    names.set(n.id, n.name);
    if (n.type === 'branch') for (const b of n.branches) names.set(`${n.id}/${b.id}`, b.name);
  });
  const nameOf = (id: string) => names.get(id) ?? id;
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
  return (
    <Space orientation="vertical" style={{ width: '100%' }} data-testid="route-preview">
      {result.failures.length > 0 && (
        <Alert
          type="warning"
          showIcon
          title={t('preview.failures')}
          description={result.failures.map((f) => JSON.stringify(f)).join('; ')}
        />
      )}
      <Typography.Text strong>{t('preview.path')}</Typography.Text>
      <Space wrap>
        {result.path.map((id, i) => (
          <Tag key={`${id}-${i}`}>{nameOf(id)}</Tag>
        ))}
      </Space>
      {result.branches.length > 0 && (
        <>
          <Typography.Text strong>{t('preview.branches')}</Typography.Text>
          <List
            size="small"
            dataSource={result.branches}
            renderItem={(b) => (
              <List.Item>
                <Space orientation="vertical" size={0}>
                  <span>
                    {nameOf(b.node_id)} →{' '}
                    <strong>
                      {b.branch_id ? nameOf(`${b.node_id}/${b.branch_id}`) : String(b.result)}
                    </strong>
                  </span>
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {t('preview.because', {
                      condition: JSON.stringify(b.condition),
                      inputs: JSON.stringify(b.inputs),
                      result: JSON.stringify(b.result),
                    })}
                  </Typography.Text>
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
                : t('preview.nobody', { strategy: JSON.stringify(n.strategy) })}
            </span>
          </List.Item>
        )}
      />
    </Space>
  );
}
