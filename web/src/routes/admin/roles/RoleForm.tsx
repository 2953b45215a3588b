import { Alert, Button, Drawer, Form, Input, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  identityCalls,
  useIdentityMutation,
  type Role,
  type RoleInput,
} from '../../../api/identity';
import { showServerErrors } from '../../../form/serverErrors';
import { PermissionEditor } from './PermissionEditor';

/** Creates a role or edits one: its code, name and permission codes. */
export function RoleForm({ role, onClose }: { role: Role | null; onClose: () => void }) {
  const { t } = useTranslation('admin');
  const [form] = Form.useForm<RoleInput>();
  const [problem, setProblem] = useState<string | null>(null);
  const create = useIdentityMutation(identityCalls.createRole, ['roles']);
  const update = useIdentityMutation(identityCalls.updateRole, ['roles']);
  const required = (label: string) => ({
    required: true,
    message: t('common.required', { label }),
  });

  const submit = async (values: RoleInput) => {
    setProblem(null);
    try {
      if (role) await update.mutateAsync({ id: role.id, body: values });
      else await create.mutateAsync(values);
      onClose();
    } catch (error) {
      setProblem(showServerErrors(form, error, (f) => [f.split('.')[0]!]));
    }
  };

  return (
    <Drawer
      open
      size="large"
      title={role ? t('roles.editTitle', { name: role.name }) : t('roles.create')}
      onClose={onClose}
      destroyOnHidden
      extra={
        <Space>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button
            type="primary"
            loading={create.isPending || update.isPending}
            onClick={() => form.submit()}
          >
            {t('common.save')}
          </Button>
        </Space>
      }
    >
      {problem && <Alert type="error" showIcon title={problem} style={{ marginBottom: 12 }} />}
      <Form<RoleInput>
        form={form}
        layout="vertical"
        onFinish={(v) => void submit(v)}
        initialValues={
          role
            ? { code: role.code, name: role.name, permissions: role.permissions }
            : { permissions: [] }
        }
      >
        <Form.Item
          name="code"
          label={t('roles.code')}
          extra={t('roles.codeHelp')}
          rules={[required(t('roles.code'))]}
        >
          <Input autoComplete="off" />
        </Form.Item>
        <Form.Item name="name" label={t('roles.name')} rules={[required(t('roles.name'))]}>
          <Input autoComplete="off" />
        </Form.Item>
        <Form.Item name="permissions" label={t('roles.permissions')}>
          <PermissionEditor />
        </Form.Item>
      </Form>
    </Drawer>
  );
}
