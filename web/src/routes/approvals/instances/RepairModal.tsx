import {
  Alert,
  DatePicker,
  Form,
  Input,
  InputNumber,
  Modal,
  Radio,
  Select,
  Space,
  Switch,
  Typography,
} from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  approvalsAdminCalls,
  useApprovalsAdminMutation,
  useDefinitionVersion,
  useInstanceDiagram,
  type AdminInstance,
} from '../../../api/approvalsAdmin';
import type { FormField } from '../../../api/bpm';
import { messageOf } from '../../../api/errors';
import { PersonPicker } from '../../../form/PersonPicker';
import { LoadingState } from '../../../components/states';
import { useNotify } from '../../admin/shared/useNotify';
import { branchesAt, findNode, resumeBodyOf } from '../shared/repair';
import { SuspendReasonText } from '../shared/SuspendReasonText';

/** The input for one form field, holding what the API takes once `patchValue` has read it. */
function FieldInput({ field, onChange }: { field: FormField; onChange: (v: unknown) => void }) {
  const label = field.label;
  switch (field.type) {
    case 'number':
    case 'amount':
      return <InputNumber aria-label={label} style={{ width: '100%' }} onChange={onChange} />;
    case 'select':
    case 'radio':
      return (
        <Select
          aria-label={label}
          allowClear
          options={(field.options ?? []).map((o) => ({ value: o, label: o }))}
          onChange={(v) => onChange(v ?? null)}
        />
      );
    case 'switch':
      return <Switch aria-label={label} onChange={onChange} />;
    case 'date':
      return (
        <DatePicker
          aria-label={label}
          onChange={(d) => onChange(d ? dayjs(d).format('YYYY-MM-DD') : null)}
        />
      );
    case 'user':
      return <PersonPicker aria-label={label} allowClear onChange={onChange as never} />;
    default:
      return <Input aria-label={label} allowClear onChange={(e) => onChange(e.target.value)} />;
  }
}

/**
 * Repairs a suspended request in place and resumes it (`POST /bpm/instances/:id/resume`): the
 * approvers of a step that found nobody, the branch of a branch node that could not decide, or a
 * corrected form field; says so when the request stopped again after resuming.
 */
export function RepairModal({
  instance,
  onClose,
}: {
  instance: AdminInstance;
  onClose: () => void;
}) {
  const { t } = useTranslation('approvals');
  const notify = useNotify();
  const diagram = useInstanceDiagram(instance.id);
  const definition = useDefinitionVersion(instance.definition_id);
  const resume = useApprovalsAdminMutation(approvalsAdminCalls.resume);
  const [assigneeIds, setAssigneeIds] = useState<number[]>([]);
  const [branchId, setBranchId] = useState<string | undefined>();
  const [edited, setEdited] = useState<Record<string, unknown>>({});
  const [comment, setComment] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const reason = instance.suspend_reason;
  const nodeId = reason?.node_id ?? '';
  const node = findNode(diagram.data?.tree, nodeId);
  const branches = branchesAt(diagram.data?.tree, nodeId);
  const fields = definition.data?.form_schema.fields.filter((f) => f.type !== 'file') ?? [];
  const body = resumeBodyOf({ assigneeIds, branchId, edited, fields, comment });
  const nothing = Object.keys(body).filter((k) => k !== 'comment').length === 0;

  const submit = async () => {
    setProblem(null);
    try {
      const after = await resume.mutateAsync({ id: instance.id, body });
      if (after.status === 'suspended' && after.suspend_reason) {
        const again = after.suspend_reason;
        const name = findNode(diagram.data?.tree, again.node_id)?.name ?? again.node_id;
        setProblem(
          t('stuck.stillStuck', {
            title: instance.title,
            reason: t(`stuck.${again.code}`, { node: name }),
          }),
        );
        return;
      }
      await notify(async () => after, t('stuck.resumed', { title: instance.title }));
      onClose();
    } catch (error) {
      setProblem(messageOf(error));
    }
  };

  return (
    <Modal
      open
      title={t('stuck.repairTitle', { title: instance.title })}
      okText={t('stuck.resume')}
      cancelText={t('common.cancel')}
      onOk={() => void submit()}
      okButtonProps={{ loading: resume.isPending, 'data-testid': 'repair-resume' }}
      onCancel={onClose}
      width={600}
      destroyOnHidden
    >
      {diagram.isPending || definition.isPending ? (
        <LoadingState />
      ) : (
        <Space direction="vertical" style={{ width: '100%' }} size="middle">
          <Alert
            type="warning"
            showIcon
            message={<SuspendReasonText reason={reason} nodeName={node?.name} withDetail />}
          />
          <Form layout="vertical" component="div">
            {reason?.code === 'empty_assignee' && (
              <Form.Item label={t('stuck.approvers')} htmlFor="repair-approvers">
                <PersonPicker
                  id="repair-approvers"
                  multiple
                  placeholder={t('reassign.pick')}
                  exclude={[instance.initiator_id]}
                  value={assigneeIds as never}
                  onChange={((v: number[]) => setAssigneeIds(v ?? [])) as never}
                  data-testid="repair-approvers"
                />
              </Form.Item>
            )}
            {branches.length > 0 && (
              <Form.Item label={t('stuck.branch')}>
                <Radio.Group
                  value={branchId ?? ''}
                  onChange={(e) => setBranchId(e.target.value || undefined)}
                  options={[
                    { value: '', label: t('stuck.noBranch') },
                    ...branches.map((b) => ({ value: b.id, label: b.name })),
                  ]}
                />
              </Form.Item>
            )}
            {fields.length > 0 && (
              <>
                <Typography.Title level={5}>{t('stuck.patch')}</Typography.Title>
                <Typography.Paragraph type="secondary">{t('stuck.patchHint')}</Typography.Paragraph>
                {fields.map((field) => (
                  <Form.Item key={field.key} label={field.label}>
                    <FieldInput
                      field={field}
                      onChange={(v) => setEdited((e) => ({ ...e, [field.key]: v }))}
                    />
                  </Form.Item>
                ))}
              </>
            )}
            <Form.Item label={t('common.comment')}>
              <Input.TextArea
                aria-label={t('common.comment')}
                rows={2}
                maxLength={2000}
                value={comment}
                onChange={(e) => setComment(e.target.value)}
              />
            </Form.Item>
          </Form>
          {nothing && <Typography.Text type="secondary">{t('stuck.noChange')}</Typography.Text>}
          {problem && (
            <Alert type="error" showIcon message={problem} data-testid="repair-problem" />
          )}
        </Space>
      )}
    </Modal>
  );
}
