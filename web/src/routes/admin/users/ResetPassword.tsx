import { Alert, Button, Form, Popconfirm } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { messageOf } from '../../../api/errors';
import { identityCalls, useIdentityMutation, type User } from '../../../api/identity';
import { NewPasswordFields } from '../../../form/NewPasswordFields';
import { showServerErrors } from '../../../form/serverErrors';

/**
 * Sets a new password for the user (`PUT /users/:id {password}`), typed twice, after a
 * confirmation: the old one stops working at once.
 */
export function ResetPassword({ user }: { user: User }) {
  const { t } = useTranslation('admin');
  const [form] = Form.useForm<{ new_password: string; confirm: string }>();
  const [problem, setProblem] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const update = useIdentityMutation(identityCalls.updateUser, ['users', 'sessions']);
  const name = user.nickname || user.username;
  const submit = async (values: { new_password: string }) => {
    setProblem(null);
    setDone(false);
    try {
      await update.mutateAsync({ id: user.id, body: { password: values.new_password } });
      form.resetFields();
      setDone(true);
    } catch (error) {
      setProblem(showServerErrors(form, error, () => ['new_password']) ?? messageOf(error));
    }
  };
  return (
    <Form form={form} layout="vertical" onFinish={(v) => void submit(v)} style={{ maxWidth: 400 }}>
      {problem && <Alert type="error" showIcon title={problem} style={{ marginBottom: 12 }} />}
      {done && (
        <Alert
          type="success"
          showIcon
          title={t('password.done', { name })}
          style={{ marginBottom: 12 }}
        />
      )}
      <NewPasswordFields extra={t('password.help')} />
      <Popconfirm
        title={t('password.question', { name })}
        okText={t('password.submit')}
        cancelText={t('common.cancel')}
        onConfirm={() => form.submit()}
      >
        <Button type="primary" loading={update.isPending}>
          {t('password.submit')}
        </Button>
      </Popconfirm>
    </Form>
  );
}
