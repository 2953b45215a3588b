import { Alert, Form, Input, Modal, Radio, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  approvalsAdminCalls,
  useAdminInstance,
  useApprovalsAdminMutation,
  type AdminInstance,
} from '../../../api/approvalsAdmin';
import { messageOf } from '../../../api/errors';
import { usePeople } from '../../../api/people';
import { PersonPicker } from '../../../form/PersonPicker';
import { ErrorState, LoadingState } from '../../../components/states';
import { useNotify } from '../../admin/shared/useNotify';

/**
 * Moves one open approval task of a request to another person (`POST /bpm/tasks/:id/reassign`,
 * a platform administrator's call): the request's open tasks with their holders by name, the
 * new holder picked from the directory.
 */
export function ReassignTaskModal(props: { instance: AdminInstance; onClose: () => void }) {
  const { t } = useTranslation('approvals');
  const notify = useNotify();
  const detail = useAdminInstance(props.instance.id);
  const open = (detail.data?.tasks ?? []).filter(
    (task) => task.kind !== 'resubmit' && (task.status === 'pending' || task.status === 'waiting'),
  );
  const [taskId, setTaskId] = useState<number | undefined>();
  const [to, setTo] = useState<number | undefined>();
  // The holders and the person picked, so the confirmation names the new holder too.
  const people = usePeople([...open.map((task) => task.assignee_id), to]);
  const [comment, setComment] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const reassign = useApprovalsAdminMutation(approvalsAdminCalls.reassignTask);
  const chosen = taskId ?? (open.length === 1 ? open[0]?.id : undefined);
  const nameOf = (id: number) => people.byId.get(id)?.name ?? `#${id}`;

  const submit = async () => {
    if (!chosen || !to) return;
    setProblem(null);
    try {
      await reassign.mutateAsync({ taskId: chosen, to_user_id: to, comment: comment.trim() });
      await notify(async () => undefined, t('reassign.done', { name: nameOf(to) }));
      props.onClose();
    } catch (error) {
      setProblem(messageOf(error));
    }
  };

  return (
    <Modal
      open
      title={t('reassign.taskTitle', { title: props.instance.title })}
      okText={t('reassign.submit')}
      cancelText={t('common.cancel')}
      okButtonProps={{ disabled: !chosen || !to, loading: reassign.isPending }}
      onOk={() => void submit()}
      onCancel={props.onClose}
      destroyOnHidden
    >
      {detail.isPending ? (
        <LoadingState />
      ) : detail.isError ? (
        <ErrorState error={detail.error} onRetry={() => void detail.refetch()} />
      ) : open.length === 0 ? (
        <Alert type="info" showIcon message={t('reassign.noOpenTask')} />
      ) : (
        <Form layout="vertical" component="div">
          <Form.Item label={t('reassign.task')}>
            <Radio.Group value={chosen} onChange={(e) => setTaskId(e.target.value as number)}>
              <Space direction="vertical">
                {open.map((task) => (
                  <Radio key={task.id} value={task.id}>
                    {task.node_name} · {t('reassign.holder', { name: nameOf(task.assignee_id) })}
                  </Radio>
                ))}
              </Space>
            </Radio.Group>
          </Form.Item>
          <Form.Item label={t('reassign.to')} htmlFor="reassign-to">
            <PersonPicker
              id="reassign-to"
              placeholder={t('reassign.pick')}
              value={to as never}
              onChange={((v: number | undefined) => setTo(v)) as never}
              data-testid="reassign-to"
            />
          </Form.Item>
          <Form.Item label={t('common.comment')}>
            <Input.TextArea
              aria-label={t('common.comment')}
              rows={2}
              maxLength={2000}
              value={comment}
              onChange={(e) => setComment(e.target.value)}
            />
          </Form.Item>
          {problem && <Alert type="error" showIcon message={problem} />}
        </Form>
      )}
    </Modal>
  );
}
