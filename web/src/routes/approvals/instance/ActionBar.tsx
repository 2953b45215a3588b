import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Form, Input, Modal, Radio, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../../api/client';
import { useIdempotencyKey } from '../../../api/idempotency';
import type { ActionName, FormSchema, InstanceDetail } from '../../../api/bpm';
import { FormRenderer } from '../../../form/FormRenderer';
import { fromSnapshot, toSubmission } from '../../../form/rules';
import { showServerErrors } from '../../../form/serverErrors';
import { PersonPicker } from '../../../form/PersonPicker';
import { useAuth } from '../../../auth/AuthContext';

/** The order buttons appear in; only those the server returned are shown. */
const ORDER: ActionName[] = [
  'approve',
  'reject',
  'return_previous',
  'return_initiator',
  'transfer',
  'delegate',
  'add_sign',
  'reduce_sign',
  'resolve',
  'withdraw',
  'urge',
  'resubmit',
  'cancel',
  'terminate',
];
const COMMENT_REQUIRED = new Set<ActionName>(['reject', 'return_initiator', 'return_previous']);
const TASK_ACTIONS = new Set<ActionName>([
  'approve',
  'reject',
  'transfer',
  'return_initiator',
  'return_previous',
  'add_sign',
  'reduce_sign',
  'delegate',
  'resolve',
  'withdraw',
]);

interface Props {
  instance: InstanceDetail;
  actions: ActionName[];
  /** The caller's task the task actions apply to. */
  taskId: number | null;
  schema: FormSchema | null;
  /** Form fields this node's approver may change when approving (`editableFields`). */
  editableFields?: string[];
  onDone: () => void;
}

export function ActionBar({
  instance,
  actions,
  taskId,
  schema,
  editableFields = [],
  onDone,
}: Props) {
  const { t } = useTranslation();
  const [open, setOpen] = useState<ActionName | null>(null);
  const shown = ORDER.filter(
    (a) => actions.includes(a) && (taskId !== null || !TASK_ACTIONS.has(a)),
  );
  if (shown.length === 0) return null;
  return (
    <>
      <Space wrap role="toolbar" aria-label={t('action.toolbar')}>
        {shown.map((a) => (
          <Button
            key={a}
            type={a === 'approve' ? 'primary' : 'default'}
            danger={a === 'reject' || a === 'terminate'}
            onClick={() => setOpen(a)}
            data-testid={`action-${a}`}
          >
            {t(`action.${a}`)}
          </Button>
        ))}
      </Space>
      {open && (
        <ActionModal
          action={open}
          instance={instance}
          taskId={taskId}
          schema={schema}
          editableFields={editableFields}
          onClose={() => setOpen(null)}
          onDone={() => {
            setOpen(null);
            onDone();
          }}
        />
      )}
    </>
  );
}

interface ActionValues {
  comment?: string;
  to_user_id?: number;
  user_ids?: number[];
  position?: 'parallel' | 'before' | 'after';
  [field: string]: unknown;
}

function ActionModal({
  action,
  instance,
  taskId,
  schema,
  editableFields,
  onClose,
  onDone,
}: {
  action: ActionName;
  instance: InstanceDetail;
  taskId: number | null;
  schema: FormSchema | null;
  editableFields: string[];
  onClose: () => void;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<ActionValues>();
  const { me } = useAuth();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const needsComment = COMMENT_REQUIRED.has(action);
  // The approver edits only the node's editable fields; the rest of the form stays as it is.
  const editSchema: FormSchema | null =
    action === 'approve' && schema && editableFields.length
      ? { fields: schema.fields.filter((f) => editableFields.includes(f.key)) }
      : null;

  const idempotency = useIdempotencyKey();
  const run = useMutation({
    mutationFn: async (v: ActionValues) => {
      const comment = v.comment?.trim() ? v.comment : undefined;
      const headers = idempotency.headers();
      const task = { params: { path: { id: taskId ?? 0 } }, headers };
      const inst = { params: { path: { id: instance.id } }, headers };
      switch (action) {
        case 'approve':
          return api.POST('/api/v1/bpm/tasks/{id}/approve', {
            ...task,
            body: { comment, ...(editSchema ? { form: toSubmission(editSchema, v) } : {}) },
          });
        case 'reject':
          return api.POST('/api/v1/bpm/tasks/{id}/reject', { ...task, body: { comment } });
        case 'transfer':
          return api.POST('/api/v1/bpm/tasks/{id}/transfer', {
            ...task,
            body: { to_user_id: v.to_user_id!, comment },
          });
        case 'delegate':
          return api.POST('/api/v1/bpm/tasks/{id}/delegate', {
            ...task,
            body: { to_user_id: v.to_user_id!, comment },
          });
        case 'add_sign':
          return api.POST('/api/v1/bpm/tasks/{id}/add-sign', {
            ...task,
            body: { user_ids: v.user_ids ?? [], position: v.position ?? 'parallel', comment },
          });
        case 'reduce_sign':
          return api.POST('/api/v1/bpm/tasks/{id}/reduce-sign', {
            ...task,
            body: { user_ids: v.user_ids ?? [], comment },
          });
        case 'withdraw':
          return api.POST('/api/v1/bpm/tasks/{id}/withdraw', { ...task, body: { comment } });
        case 'urge':
          return api.POST('/api/v1/bpm/instances/{id}/urge', { ...inst, body: { comment } });
        case 'return_initiator':
        case 'return_previous':
          return api.POST('/api/v1/bpm/tasks/{id}/return', {
            ...task,
            body: { to: action === 'return_initiator' ? 'initiator' : 'previous', comment },
          });
        case 'resolve':
          return api.POST('/api/v1/bpm/tasks/{id}/resolve', { ...task, body: { comment } });
        case 'cancel':
          return api.POST('/api/v1/bpm/instances/{id}/cancel', { ...inst, body: { comment } });
        case 'terminate':
          return api.POST('/api/v1/bpm/instances/{id}/terminate', { ...inst, body: { comment } });
        case 'resubmit':
          return api.POST('/api/v1/bpm/instances/{id}/resubmit', {
            ...inst,
            body: { form: toSubmission(schema ?? { fields: [] }, v) },
          });
      }
    },
    onSettled: (_data, error) => idempotency.settled(error ?? undefined),
    onSuccess: async () => {
      message.success(t('action.done', { action: t(`action.${action}`) }));
      await queryClient.invalidateQueries();
      onDone();
    },
    onError: (err) => setError(showServerErrors(form, err)),
  });

  return (
    <Modal
      open
      title={t(`action.${action}`)}
      onCancel={onClose}
      okText={t('common.submit')}
      cancelText={t('common.cancel')}
      okButtonProps={{
        loading: run.isPending,
        danger: action === 'reject' || action === 'terminate',
        htmlType: 'submit',
        form: 'action-form',
      }}
      destroyOnHidden
      width={action === 'resubmit' ? 640 : 480}
    >
      {error && (
        <Alert role="alert" type="error" title={error} showIcon style={{ marginBottom: 12 }} />
      )}
      <Form<ActionValues>
        id="action-form"
        form={form}
        layout="vertical"
        onFinish={(v) => {
          if (!run.isPending) run.mutate(v);
        }}
        initialValues={
          (action === 'resubmit' || editSchema) && schema ? fromSnapshot(schema, instance.form) : {}
        }
      >
        {(action === 'transfer' || action === 'delegate') && (
          <Form.Item
            name="to_user_id"
            label={t('action.toUser')}
            rules={[
              { required: true, message: t('validation.required', { label: t('action.toUser') }) },
            ]}
          >
            <PersonPicker aria-label={t('action.toUser')} exclude={me ? [me.id] : []} />
          </Form.Item>
        )}
        {(action === 'add_sign' || action === 'reduce_sign') && (
          <Form.Item
            name="user_ids"
            label={t(action === 'add_sign' ? 'action.addUsers' : 'action.removeUsers')}
            rules={[
              {
                required: true,
                message: t('validation.required', {
                  label: t(action === 'add_sign' ? 'action.addUsers' : 'action.removeUsers'),
                }),
              },
            ]}
          >
            <PersonPicker
              multiple
              exclude={action === 'add_sign' && me ? [me.id] : []}
              aria-label={t(action === 'add_sign' ? 'action.addUsers' : 'action.removeUsers')}
            />
          </Form.Item>
        )}
        {action === 'add_sign' && (
          <Form.Item name="position" label={t('action.position')} initialValue="parallel">
            <Radio.Group>
              {(['parallel', 'before', 'after'] as const).map((p) => (
                <Radio key={p} value={p}>
                  {t(`action.position_${p}`)}
                </Radio>
              ))}
            </Radio.Group>
          </Form.Item>
        )}
        {action === 'resubmit' && schema && <FormRenderer schema={schema} files={instance.files} />}
        {editSchema && <FormRenderer schema={editSchema} files={instance.files} />}
        {action !== 'resubmit' && (
          <Form.Item
            name="comment"
            label={t('action.comment')}
            rules={
              needsComment
                ? [{ required: true, whitespace: true, message: t('action.commentRequired') }]
                : [{ max: 2000 }]
            }
          >
            <Input.TextArea
              autoFocus
              autoSize={{ minRows: 3, maxRows: 8 }}
              maxLength={2000}
              data-testid="action-comment"
            />
          </Form.Item>
        )}
      </Form>
    </Modal>
  );
}
