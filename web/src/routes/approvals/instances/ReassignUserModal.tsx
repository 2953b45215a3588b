import { Alert, Form, Input, Modal, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  approvalsAdminCalls,
  useApprovalsAdminMutation,
  type UserReassignResult,
} from '../../../api/approvalsAdmin';
import { messageOf } from '../../../api/errors';
import { PersonPicker } from '../../../form/PersonPicker';

/**
 * Hands every open approval task of one person to another at once (`POST /bpm/admin/reassign`)
 * and reports what moved and what stayed, with the server's reason for each task left behind.
 */
export function ReassignUserModal({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation('approvals');
  const [from, setFrom] = useState<number | undefined>();
  const [to, setTo] = useState<number | undefined>();
  const [comment, setComment] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [result, setResult] = useState<UserReassignResult | null>(null);
  const reassign = useApprovalsAdminMutation(approvalsAdminCalls.reassignUser);
  const same = from !== undefined && from === to;

  const submit = async () => {
    if (result) return onClose();
    if (!from || !to || same) return;
    setProblem(null);
    try {
      const body = { from_user_id: from, to_user_id: to, ...(comment.trim() ? { comment } : {}) };
      setResult(await reassign.mutateAsync(body));
    } catch (error) {
      setProblem(messageOf(error));
    }
  };

  return (
    <Modal
      open
      title={t('reassign.userTitle')}
      okText={result ? t('common.cancel') : t('reassign.submit')}
      cancelText={t('common.cancel')}
      okButtonProps={{ disabled: !result && (!from || !to || same), loading: reassign.isPending }}
      onOk={() => void submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      {result ? (
        <div data-testid="reassign-user-result">
          <Alert
            type="success"
            showIcon
            message={t('reassign.userDone', { count: result.reassigned })}
          />
          {result.skipped.length > 0 && (
            <>
              <Typography.Paragraph style={{ marginTop: 12 }}>
                {t('reassign.skipped')}
              </Typography.Paragraph>
              <ul>
                {result.skipped.map((s) => (
                  <li key={s.task_id}>
                    {t('reassign.skippedTask', { id: s.task_id, message: s.message })}
                  </li>
                ))}
              </ul>
            </>
          )}
        </div>
      ) : (
        <Form layout="vertical" component="div">
          <Form.Item label={t('reassign.from')} htmlFor="reassign-from">
            <PersonPicker
              id="reassign-from"
              placeholder={t('reassign.pick')}
              value={from as never}
              onChange={((v: number | undefined) => setFrom(v)) as never}
            />
          </Form.Item>
          <Form.Item
            label={t('reassign.to')}
            htmlFor="reassign-user-to"
            validateStatus={same ? 'error' : undefined}
            help={same ? t('reassign.sameUser') : undefined}
          >
            <PersonPicker
              id="reassign-user-to"
              placeholder={t('reassign.pick')}
              value={to as never}
              onChange={((v: number | undefined) => setTo(v)) as never}
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
