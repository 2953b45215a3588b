import { Alert, Button, Form, Input, List, Modal, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { Task } from '../../../api/bpm';
import { ApiError, messageOf } from '../../../api/errors';
import { useBatchTaskAction, type BatchOutcome } from '../../../api/taskActions';

type BatchAction = 'approve' | 'reject';

/**
 * The todo list's batch bar: the picked tasks approved or rejected in one call. The dialog names
 * every request it will act on; the answer says how many were done and, for each refused one,
 * why (another approver was faster, the step needs form input, …), linking to it.
 */
export function BatchActions({ picked, onDone }: { picked: Task[]; onDone: () => void }) {
  const { t } = useTranslation('approvals');
  const [open, setOpen] = useState<BatchAction | null>(null);
  if (picked.length === 0) return null;
  return (
    <Space wrap role="toolbar" aria-label={t('batch.toolbar')}>
      <Typography.Text>{t('batch.picked', { count: picked.length })}</Typography.Text>
      <Button type="primary" onClick={() => setOpen('approve')}>
        {t('batch.approve')}
      </Button>
      <Button danger onClick={() => setOpen('reject')}>
        {t('batch.reject')}
      </Button>
      <Button type="link" onClick={onDone}>
        {t('batch.clear')}
      </Button>
      {open && (
        <BatchDialog
          action={open}
          picked={picked}
          onClose={(acted) => {
            setOpen(null);
            if (acted) onDone();
          }}
        />
      )}
    </Space>
  );
}

function BatchDialog({
  action,
  picked,
  onClose,
}: {
  action: BatchAction;
  picked: Task[];
  onClose: (acted: boolean) => void;
}) {
  const { t } = useTranslation('approvals');
  const [form] = Form.useForm<{ comment?: string }>();
  const run = useBatchTaskAction();
  const outcome = run.data;
  const title = t(`batch.${action}Title`, { count: picked.length });
  return (
    <Modal
      open
      title={title}
      onCancel={() => onClose(outcome !== undefined)}
      destroyOnHidden
      footer={
        outcome ? (
          <Button type="primary" onClick={() => onClose(true)}>
            {t('batch.close')}
          </Button>
        ) : (
          <Space>
            <Button onClick={() => onClose(false)}>{t('common.cancel')}</Button>
            <Button
              type="primary"
              danger={action === 'reject'}
              loading={run.isPending}
              htmlType="submit"
              form="batch-form"
            >
              {t(`batch.${action}`)}
            </Button>
          </Space>
        )
      }
    >
      {outcome ? (
        <BatchOutcomeView outcome={outcome} picked={picked} action={action} />
      ) : (
        <>
          {run.isError && (
            <Alert
              role="alert"
              type="error"
              showIcon
              title={messageOf(run.error)}
              style={{ marginBottom: 12 }}
            />
          )}
          <Typography.Paragraph>{t(`batch.${action}Intro`)}</Typography.Paragraph>
          <List
            size="small"
            bordered
            style={{ maxHeight: 200, overflow: 'auto', marginBottom: 12 }}
            dataSource={picked}
            renderItem={(task) => (
              <List.Item>
                {task.instance_title} · {task.node_name}
              </List.Item>
            )}
          />
          <Form
            id="batch-form"
            form={form}
            layout="vertical"
            onFinish={(v) => {
              if (!run.isPending)
                run.mutate({ action, task_ids: picked.map((p) => p.id), comment: v.comment });
            }}
          >
            <Form.Item
              name="comment"
              label={t(action === 'reject' ? 'batch.commentRequired' : 'common.comment')}
              rules={
                action === 'reject'
                  ? [{ required: true, whitespace: true, message: t('batch.commentMissing') }]
                  : []
              }
            >
              <Input.TextArea autoSize={{ minRows: 2, maxRows: 6 }} maxLength={2000} />
            </Form.Item>
          </Form>
        </>
      )}
    </Modal>
  );
}

function BatchOutcomeView({
  outcome,
  picked,
  action,
}: {
  outcome: BatchOutcome;
  picked: Task[];
  action: BatchAction;
}) {
  const { t } = useTranslation('approvals');
  const byId = new Map(picked.map((p) => [p.id, p]));
  const refused = outcome.results.filter((r) => !r.ok);
  return (
    <>
      <Alert
        role="status"
        type={refused.length === 0 ? 'success' : 'warning'}
        showIcon
        title={t(`batch.${action}Done`, { count: outcome.succeeded })}
        description={
          refused.length ? t('batch.refusedCount', { count: outcome.failed }) : undefined
        }
        style={{ marginBottom: 12 }}
      />
      {refused.length > 0 && (
        <div role="group" aria-label={t('batch.refusedList')}>
          <List
            size="small"
            bordered
            dataSource={refused}
            renderItem={(r) => {
              const task = byId.get(r.task_id);
              return (
                <List.Item>
                  <Space orientation="vertical" size={0}>
                    <Link to={`/tasks/${r.task_id}`}>
                      {task?.instance_title ?? `#${r.task_id}`}
                    </Link>
                    <Typography.Text type="secondary">
                      {messageOf(new ApiError(0, r.code ?? 0, r.message ?? '', null))}
                    </Typography.Text>
                  </Space>
                </List.Item>
              );
            }}
          />
        </div>
      )}
    </>
  );
}
