import { Button, Drawer, Form, Input, InputNumber, Radio, Select, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Branch, FlowNode, FormSchema, NodeTimeout } from '../../../api/bpm';
import { PersonPicker } from '../../../form/PersonPicker';
import { AssigneeEditor } from './AssigneeEditor';
import { cleanAssignee } from './assignee';
import { ConditionEditor } from './ConditionEditor';
import { fromGroup, toGroup, type ConditionGroup } from './conditions';
import { TimeoutEditor } from './TimeoutEditor';
import { cleanTimeout } from './timeout';

export function NodeDrawer({
  target,
  schema,
  onClose,
  onNode,
  onBranch,
}: {
  target: { node?: FlowNode; branch?: Branch };
  schema: FormSchema;
  onClose: () => void;
  onNode: (id: string, patch: Partial<FlowNode>) => void;
  onBranch: (id: string, patch: Partial<Branch>) => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm();
  const fieldOptions = schema.fields.map((f) => ({ value: f.key, label: `${f.label} (${f.key})` }));
  const { node, branch } = target;

  if (branch) {
    return (
      <Drawer open onClose={onClose} title={t('designer.editBranch')} size={520} destroyOnHidden>
        <Form
          form={form}
          layout="vertical"
          initialValues={{ name: branch.name, condition: toGroup(branch.condition, schema) }}
          onFinish={(v: { name: string; condition?: ConditionGroup }) => {
            onBranch(branch.id, {
              name: v.name,
              ...(branch.default || !v.condition
                ? {}
                : { condition: fromGroup(schema, v.condition) }),
            });
            onClose();
          }}
        >
          <Form.Item name="name" label={t('designer.name')} rules={[{ required: true }]}>
            <Input />
          </Form.Item>
          {branch.default ? (
            <p>{t('designer.otherwiseHint')}</p>
          ) : (
            <>
              <Form.Item name="condition" label={t('designer.condition')}>
                <ConditionEditor schema={schema} />
              </Form.Item>
            </>
          )}
          <Button
            type="primary"
            htmlType="submit"
            style={{ marginTop: 16 }}
            data-testid="drawer-apply"
          >
            {t('designer.apply')}
          </Button>
        </Form>
      </Drawer>
    );
  }
  if (!node) return null;
  const isTask = node.type === 'approval' || node.type === 'cc';
  return (
    <Drawer
      open
      onClose={onClose}
      title={t('designer.editNode', { name: node.name })}
      size={520}
      destroyOnHidden
    >
      <Form
        form={form}
        layout="vertical"
        initialValues={{
          ...node,
          timeoutOn: node.type === 'approval' && node.timeout !== undefined,
          passPercent:
            node.type === 'approval' && node.passRatio ? Math.round(node.passRatio * 100) : 50,
        }}
        onValuesChange={(changed: { assignee?: { type?: string; source?: string } }) => {
          // `field` names a person field for one rule, a department field for the other.
          if (changed.assignee?.type || changed.assignee?.source)
            form.setFieldValue(['assignee', 'field'], undefined);
        }}
        onFinish={(v: Record<string, unknown>) => {
          const patch: Record<string, unknown> = {
            name: v.name,
            hiddenFields: v.hiddenFields ?? [],
          };
          if (isTask) patch.assignee = cleanAssignee(v.assignee as Record<string, unknown>);
          if (node.type === 'approval') {
            Object.assign(patch, {
              mode: v.mode,
              // The ratio is edited as a percentage and stored as a share (0 < r ≤ 1).
              passRatio: v.mode === 'vote' ? Number(v.passPercent ?? 50) / 100 : undefined,
              onReject: v.onReject,
              allowBackPrev: v.allowBackPrev ?? false,
              allowInitiator: v.allowInitiator ?? false,
              editableFields: v.editableFields ?? [],
              emptyAssignee: v.emptyAssignee,
              timeout: v.timeoutOn ? cleanTimeout(v.timeout as Partial<NodeTimeout>) : undefined,
            });
          }
          onNode(node.id, patch as Partial<FlowNode>);
          onClose();
        }}
      >
        <Form.Item name="name" label={t('designer.name')} rules={[{ required: true }]}>
          <Input data-testid="node-name" />
        </Form.Item>
        {isTask && <AssigneeEditor nodeType={node.type} schema={schema} />}
        {node.type === 'approval' && (
          <>
            <Form.Item name="mode" label={t('designer.modeLabel')}>
              <Radio.Group
                options={(['or', 'and', 'sequential', 'vote'] as const).map((m) => ({
                  value: m,
                  label: t(`designer.mode.${m}`),
                }))}
              />
            </Form.Item>
            <Form.Item noStyle shouldUpdate={(a, b) => a.mode !== b.mode}>
              {({ getFieldValue }) =>
                getFieldValue('mode') === 'vote' && (
                  <Form.Item
                    name="passPercent"
                    label={t('designer.passPercent')}
                    rules={[{ required: true }]}
                  >
                    <InputNumber
                      min={1}
                      max={100}
                      suffix="%"
                      aria-label={t('designer.passPercent')}
                      data-testid="pass-percent"
                    />
                  </Form.Item>
                )
              }
            </Form.Item>
            <Form.Item name="onReject" label={t('designer.onReject')} initialValue="terminate">
              <Radio.Group
                options={[
                  { value: 'terminate', label: t('designer.rejectEnds') },
                  { value: 'initiator', label: t('designer.rejectReturns') },
                ]}
              />
            </Form.Item>
            <Form.Item
              name="allowBackPrev"
              label={t('designer.allowBackPrev')}
              valuePropName="checked"
            >
              <Switch />
            </Form.Item>
            <Form.Item
              name="allowInitiator"
              label={t('designer.allowInitiator')}
              extra={t('designer.allowInitiatorHint')}
              valuePropName="checked"
            >
              <Switch data-testid="allow-initiator" />
            </Form.Item>
            <TimeoutEditor />
            <Form.Item
              name={['emptyAssignee', 'strategy']}
              label={t('designer.emptyAssignee')}
              initialValue="suspend"
            >
              <Select
                options={(['suspend', 'auto_pass', 'fallback_users'] as const).map((s) => ({
                  value: s,
                  label: t(`designer.empty.${s}`),
                }))}
              />
            </Form.Item>
            <Form.Item noStyle dependencies={[['emptyAssignee', 'strategy']]}>
              {({ getFieldValue }) =>
                getFieldValue(['emptyAssignee', 'strategy']) === 'fallback_users' && (
                  <Form.Item
                    name={['emptyAssignee', 'userIds']}
                    label={t('designer.fallbackUsers')}
                    rules={[{ required: true }]}
                  >
                    <PersonPicker multiple aria-label={t('designer.fallbackUsers')} />
                  </Form.Item>
                )
              }
            </Form.Item>
            <Form.Item name="editableFields" label={t('designer.editableFields')}>
              <Select mode="multiple" options={fieldOptions} />
            </Form.Item>
          </>
        )}
        {node.type !== 'branch' && node.type !== 'start' && (
          <Form.Item name="hiddenFields" label={t('designer.hiddenFields')}>
            <Select mode="multiple" options={fieldOptions} />
          </Form.Item>
        )}
        <Button type="primary" htmlType="submit" data-testid="drawer-apply">
          {t('designer.apply')}
        </Button>
      </Form>
    </Drawer>
  );
}
