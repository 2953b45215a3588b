import { Alert, Button, Form, Input, Modal, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { messageOf } from '../../../api/errors';
import {
  identityCalls,
  useIdentityMutation,
  type ReassignResult,
  type User,
} from '../../../api/identity';
import { useAuth } from '../../../auth/AuthContext';
import { PersonPicker } from '../../../form/PersonPicker';

type Step =
  | { kind: 'confirm' }
  | { kind: 'reassign'; openTasks: number }
  | { kind: 'done'; result: ReassignResult };

/**
 * Opened from a user's row, and kept open by the page while the list refreshes (the row changes
 * once the user is disabled). Disables a user after a confirmation that says what it does; when they still hold open
 * approval tasks (the answer's `open_tasks`), offers to hand them all to someone else at once
 * (`POST /bpm/admin/reassign`, a platform administrator's call), and reports what moved.
 */
export function DisableUser({ user, onClose }: { user: User; onClose: () => void }) {
  const { t } = useTranslation('admin');
  const { me } = useAuth();
  const [step, setStep] = useState<Step>({ kind: 'confirm' });
  const [problem, setProblem] = useState<string | null>(null);
  const [to, setTo] = useState<number | undefined>();
  const [comment, setComment] = useState('');
  const disable = useIdentityMutation(identityCalls.updateUser, ['users']);
  const reassign = useIdentityMutation(identityCalls.reassignTasks, ['users']);
  const name = user.nickname || user.username;
  const close = onClose;

  const confirmDisable = async () => {
    setProblem(null);
    try {
      const answer = await disable.mutateAsync({ id: user.id, body: { status: 'disabled' } });
      const open = answer.open_tasks ?? 0;
      if (open > 0) setStep({ kind: 'reassign', openTasks: open });
      else close();
    } catch (error) {
      setProblem(messageOf(error));
    }
  };

  const confirmReassign = async () => {
    if (!to) return;
    setProblem(null);
    try {
      const body = { from_user_id: user.id, to_user_id: to, ...(comment ? { comment } : {}) };
      setStep({ kind: 'done', result: await reassign.mutateAsync(body) });
    } catch (error) {
      setProblem(messageOf(error));
    }
  };

  const footer = () => {
    if (step.kind === 'confirm')
      return [
        <Button key="cancel" onClick={close}>
          {t('common.cancel')}
        </Button>,
        <Button
          key="ok"
          danger
          type="primary"
          loading={disable.isPending}
          onClick={() => void confirmDisable()}
        >
          {t('users.disable')}
        </Button>,
      ];
    if (step.kind === 'reassign')
      return [
        <Button key="later" onClick={close}>
          {t('users.reassignLater')}
        </Button>,
        <Button
          key="ok"
          type="primary"
          disabled={!to || !me?.is_platform_admin}
          loading={reassign.isPending}
          onClick={() => void confirmReassign()}
        >
          {t('users.reassign')}
        </Button>,
      ];
    return [
      <Button key="close" type="primary" onClick={close}>
        {t('common.close')}
      </Button>,
    ];
  };

  return (
    <Modal
      open
      title={t('users.disableTitle', { name })}
      onCancel={close}
      footer={footer()}
      destroyOnHidden
    >
      {problem && <Alert type="error" showIcon title={problem} style={{ marginBottom: 12 }} />}
      {step.kind === 'confirm' && <p>{t('users.disableQuestion', { name })}</p>}
      {step.kind === 'reassign' && (
        <>
          <Alert
            type="warning"
            showIcon
            title={t('users.openTasks', { name, count: step.openTasks })}
            style={{ marginBottom: 12 }}
          />
          {me?.is_platform_admin ? (
            <Form layout="vertical">
              <Form.Item label={t('users.reassignTo')} htmlFor="reassign-to">
                <PersonPicker
                  id="reassign-to"
                  aria-label={t('users.reassignTo')}
                  value={to}
                  onChange={(v: number | undefined) => setTo(v)}
                  exclude={[user.id]}
                />
              </Form.Item>
              <Form.Item label={t('users.comment')} htmlFor="reassign-comment">
                <Input.TextArea
                  id="reassign-comment"
                  value={comment}
                  onChange={(e) => setComment(e.target.value)}
                  maxLength={500}
                />
              </Form.Item>
            </Form>
          ) : (
            <Typography.Paragraph>{t('users.reassignNeedsPlatformAdmin')}</Typography.Paragraph>
          )}
        </>
      )}
      {step.kind === 'done' && (
        <div data-testid="reassign-result">
          <p>{t('users.reassigned', { count: step.result.reassigned })}</p>
          {step.result.skipped.length > 0 && (
            <Alert
              type="warning"
              showIcon
              title={t('users.skipped', { count: step.result.skipped.length })}
              description={
                <ul style={{ margin: 0, paddingInlineStart: 16 }}>
                  {step.result.skipped.map((s) => (
                    <li key={s.task_id}>
                      {t('users.skippedTask', { id: s.task_id, reason: s.message })}
                    </li>
                  ))}
                </ul>
              }
            />
          )}
        </div>
      )}
    </Modal>
  );
}
