import { Alert, App, Button, Form, Input, Modal, Radio, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useTaskAction, type ActionValues } from '../../../api/taskActions';
import type { ActionName, FormSchema, InstanceDetail } from '../../../api/bpm';
import { FormRenderer } from '../../../form/FormRenderer';
import { fromSnapshot } from '../../../form/rules';
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
  /** False while the schema or the editable fields are still loading: the buttons wait. */
  ready?: boolean;
  onDone: () => void;
}

export function ActionBar({
  instance,
  actions,
  taskId,
  schema,
  editableFields = [],
  ready = true,
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
            disabled={!ready}
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
  const [error, setError] = useState<string | null>(null);
  const needsComment = COMMENT_REQUIRED.has(action);
  // The approver edits only the node's editable fields; the rest of the form stays as it is.
  const editSchema: FormSchema | null =
    action === 'approve' && schema && editableFields.length
      ? { fields: schema.fields.filter((f) => editableFields.includes(f.key)) }
      : null;

  const run = useTaskAction(
    action,
    { instanceId: instance.id, taskId, schema, editSchema },
    {
      onSuccess: () => {
        message.success(t('action.done', { action: t(`action.${action}`) }));
        onDone();
      },
      onError: (err) => setError(showServerErrors(form, err)),
    },
  );

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
