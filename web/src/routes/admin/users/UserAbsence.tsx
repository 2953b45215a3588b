import { Alert, Button, DatePicker, Form, Input, Space, Switch, Tag } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  identityCalls,
  useIdentityMutation,
  useUserAbsence,
  type User,
} from '../../../api/identity';
import { PersonPicker } from '../../../form/PersonPicker';
import { showServerErrors } from '../../../form/serverErrors';
import { toInput, type AbsenceValues } from '../../account/profile/outOfOfficeForm';
import { ErrorState, LoadingState } from '../../../components/states';
import { ConfirmButton } from '../shared/ConfirmButton';
import { useNotify } from '../shared/useNotify';

/**
 * Sets someone else's absence (a platform administrator's call): who stands in for them, from
 * when to when, and whether their open tasks move now; or clears it.
 */
export function UserAbsence({ user }: { user: User }) {
  const { t } = useTranslation('admin');
  const absence = useUserAbsence(user.id);
  const [form] = Form.useForm<AbsenceValues>();
  const [problem, setProblem] = useState<string | null>(null);
  const [moved, setMoved] = useState<number | null>(null);
  const save = useIdentityMutation(identityCalls.setAbsence, ['absence']);
  const clear = useIdentityMutation(identityCalls.clearAbsence, ['absence']);
  const notify = useNotify();
  const name = user.nickname || user.username;
  if (absence.isPending) return <LoadingState />;
  if (absence.isError)
    return <ErrorState error={absence.error} onRetry={() => void absence.refetch()} />;
  const current = absence.data;

  const submit = async (values: AbsenceValues) => {
    setProblem(null);
    try {
      const saved = await save.mutateAsync({ userId: user.id, body: toInput(values) });
      setMoved(saved.moved);
    } catch (error) {
      setProblem(
        showServerErrors(form, error, (f) => (f === 'from' || f === 'to' ? ['period'] : [f])),
      );
    }
  };
  const required = (label: string) => ({
    required: true,
    message: t('common.required', { label }),
  });

  return (
    <Form<AbsenceValues>
      form={form}
      layout="vertical"
      onFinish={(v) => void submit(v)}
      initialValues={
        current
          ? {
              stand_in_id: current.stand_in_id,
              period: [dayjs(current.from), dayjs(current.to)],
              move_pending: current.move_pending,
              comment: current.comment ?? '',
              definition_keys: current.definition_keys ?? undefined,
            }
          : {
              // From now to the end of tomorrow unless changed, as one's own absence starts.
              period: [
                dayjs().startOf('minute'),
                dayjs().add(1, 'day').endOf('day').startOf('minute'),
              ],
              move_pending: false,
            }
      }
    >
      {current && (
        <Tag color={current.active ? 'warning' : 'processing'} style={{ marginBottom: 12 }}>
          {current.active ? t('absence.active') : t('absence.scheduled')}
        </Tag>
      )}
      {problem && <Alert type="error" showIcon title={problem} style={{ marginBottom: 12 }} />}
      {moved !== null && (
        <Alert
          type="success"
          showIcon
          title={t('absence.saved', { count: moved })}
          style={{ marginBottom: 12 }}
        />
      )}
      <Form.Item
        name="stand_in_id"
        label={t('absence.standIn')}
        rules={[required(t('absence.standIn'))]}
      >
        <PersonPicker aria-label={t('absence.standIn')} exclude={[user.id]} />
      </Form.Item>
      <Form.Item name="period" label={t('absence.period')} rules={[required(t('absence.period'))]}>
        <DatePicker.RangePicker showTime style={{ width: '100%' }} />
      </Form.Item>
      <Form.Item name="move_pending" label={t('absence.movePending')} valuePropName="checked">
        <Switch />
      </Form.Item>
      <Form.Item name="comment" label={t('absence.comment')}>
        <Input.TextArea maxLength={500} />
      </Form.Item>
      <Space wrap>
        <Button type="primary" htmlType="submit" loading={save.isPending}>
          {t('common.save')}
        </Button>
        {current && (
          <ConfirmButton
            type="default"
            size="middle"
            question={t('absence.clearQuestion', { name })}
            action={t('absence.clear')}
            onConfirm={() =>
              notify(
                async () => {
                  await clear.mutateAsync(user.id);
                  form.resetFields();
                },
                t('absence.cleared', { name }),
              )
            }
          >
            {t('absence.clear')}
          </ConfirmButton>
        )}
      </Space>
    </Form>
  );
}
