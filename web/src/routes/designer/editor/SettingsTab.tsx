import { Form, Input, InputNumber, Select, Space, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import type { FlowNode, ResubmitTimeout, StartNode } from '../../../api/bpm';
import { StartersEditor, type Starters } from './StartersEditor';
import { cleanResubmitTimeout, MAX_TIMEOUT_HOURS, RESUBMIT_ACTIONS } from './timeout';
import { patchStart } from './treeEdit';

/**
 * The flow's settings: name, category, who may start it, and the start node's definition-wide
 * options (repeat approvals, and how long a returned request waits for its initiator).
 */
export function SettingsTab({
  name,
  onName,
  category,
  onCategory,
  starters,
  onStarters,
  tree,
  onTree,
  editable,
}: {
  name: string;
  onName: (v: string) => void;
  category: string;
  onCategory: (v: string) => void;
  starters: Starters;
  onStarters: (v: Starters) => void;
  tree: FlowNode;
  onTree: (tree: FlowNode) => void;
  editable: boolean;
}) {
  const { t } = useTranslation();
  const start = tree as StartNode;
  const resubmit = start.resubmitTimeout;
  const setResubmit = (patch: Partial<ResubmitTimeout> | null) =>
    onTree(
      patchStart(tree, {
        resubmitTimeout: patch
          ? cleanResubmitTimeout({ hours: 72, action: 'remind', ...resubmit, ...patch })
          : undefined,
      }),
    );
  return (
    <Form layout="vertical" style={{ maxWidth: 480 }}>
      <Form.Item label={t('designer.name')} htmlFor="definition-name">
        <Input
          id="definition-name"
          value={name}
          disabled={!editable}
          onChange={(e) => onName(e.target.value)}
        />
      </Form.Item>
      <Form.Item label={t('designer.category')} htmlFor="definition-category">
        <Input
          id="definition-category"
          value={category}
          disabled={!editable}
          onChange={(e) => onCategory(e.target.value)}
        />
      </Form.Item>
      <StartersEditor value={starters} onChange={onStarters} disabled={!editable} />
      <Form.Item label={t('designer.repeats')} htmlFor="definition-repeats">
        <Select
          id="definition-repeats"
          value={start.autoApproveRepeats ?? 'off'}
          disabled={!editable}
          onChange={(autoApproveRepeats) => onTree(patchStart(tree, { autoApproveRepeats }))}
          options={(['off', 'consecutive', 'any'] as const).map((v) => ({
            value: v,
            label: t(`designer.repeatsRule.${v}`),
          }))}
        />
      </Form.Item>
      <Form.Item
        label={t('designer.resubmitTimeout')}
        htmlFor="resubmit-timeout-on"
        extra={t('designer.resubmitTimeoutHint')}
      >
        <Switch
          id="resubmit-timeout-on"
          checked={resubmit !== undefined}
          disabled={!editable}
          data-testid="resubmit-timeout-on"
          onChange={(on) => setResubmit(on ? {} : null)}
        />
      </Form.Item>
      {resubmit && (
        <Space wrap align="start">
          <Form.Item label={t('designer.resubmitHours')} htmlFor="resubmit-timeout-hours">
            <InputNumber
              id="resubmit-timeout-hours"
              min={0.1}
              max={MAX_TIMEOUT_HOURS}
              suffix="h"
              value={resubmit.hours}
              disabled={!editable}
              onChange={(hours) => typeof hours === 'number' && setResubmit({ hours })}
            />
          </Form.Item>
          <Form.Item label={t('designer.timeoutAction')} htmlFor="resubmit-timeout-action">
            <Select
              id="resubmit-timeout-action"
              style={{ width: 260 }}
              value={resubmit.action}
              disabled={!editable}
              onChange={(action) => setResubmit({ action })}
              options={RESUBMIT_ACTIONS.map((a) => ({
                value: a,
                label: t(`designer.resubmitDo.${a}`),
              }))}
            />
          </Form.Item>
        </Space>
      )}
    </Form>
  );
}
