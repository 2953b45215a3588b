import { Form, Input, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  identityCalls,
  useAllPosts,
  useAllRoles,
  useIdentityMutation,
  type User,
  type UserInput,
} from '../../../api/identity';
import { grants, useAuth } from '../../../auth/AuthContext';
import { DeptSelect } from '../../../form/DeptSelect';
import { changedFields, type UserValues as Values } from './userChanges';
import { FormModal, topField } from '../shared/FormModal';

/**
 * Creates a user, or edits one: name, e-mail, department, roles and posts. A role carrying a
 * code the administrator does not hold is offered but cannot be picked (the server refuses it).
 */
export function UserFormModal({ user, onClose }: { user: User | null; onClose: () => void }) {
  const { t } = useTranslation('admin');
  const { me } = useAuth();
  const [form] = Form.useForm<Values>();
  const roles = useAllRoles();
  const posts = useAllPosts();
  const create = useIdentityMutation(identityCalls.createUser, ['users']);
  const update = useIdentityMutation(identityCalls.updateUser, ['users']);
  const held = me?.permissions ?? [];
  const required = (label: string) => ({
    required: true,
    message: t('common.required', { label }),
  });

  const save = async (values: Values) => {
    if (user) await update.mutateAsync({ id: user.id, body: changedFields(user, values) });
    else {
      const body: UserInput = {
        username: values.username,
        password: values.password ?? '',
        nickname: values.nickname ?? '',
        email: values.email ? values.email : null,
        dept_id: values.dept_id ?? null,
        role_ids: values.role_ids ?? [],
        post_ids: values.post_ids ?? [],
      };
      await create.mutateAsync(body);
    }
  };

  return (
    <FormModal<Values>
      title={user ? t('users.editTitle', { name: user.username }) : t('users.create')}
      form={form}
      initialValues={
        user
          ? {
              username: user.username,
              nickname: user.nickname,
              email: user.email ?? '',
              dept_id: user.dept_id,
              role_ids: user.role_ids,
              post_ids: user.post_ids,
            }
          : { role_ids: [], post_ids: [] }
      }
      save={save}
      saving={create.isPending || update.isPending}
      onClose={onClose}
      fieldOf={topField}
    >
      <Form.Item
        name="username"
        label={t('users.username')}
        rules={[required(t('users.username'))]}
      >
        <Input autoComplete="off" />
      </Form.Item>
      {!user && (
        <Form.Item
          name="password"
          label={t('users.initialPassword')}
          extra={t('users.initialPasswordHelp')}
          rules={[required(t('users.initialPassword'))]}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
      )}
      <Form.Item name="nickname" label={t('users.nickname')}>
        <Input />
      </Form.Item>
      <Form.Item
        name="email"
        label={t('users.email')}
        rules={[{ type: 'email', message: t('users.badEmail') }]}
      >
        <Input type="email" />
      </Form.Item>
      <Form.Item name="dept_id" label={t('users.department')}>
        <DeptSelect allowClear aria-label={t('users.department')} />
      </Form.Item>
      <Form.Item name="role_ids" label={t('users.roles')}>
        <Select
          mode="multiple"
          aria-label={t('users.roles')}
          loading={roles.isPending}
          optionFilterProp="label"
          options={(roles.data?.list ?? []).map((r) => ({
            value: r.id,
            label: r.name,
            disabled: !r.permissions.every((p) => grants(held, p)),
          }))}
        />
      </Form.Item>
      <Form.Item name="post_ids" label={t('users.posts')}>
        <Select
          mode="multiple"
          aria-label={t('users.posts')}
          loading={posts.isPending}
          optionFilterProp="label"
          options={(posts.data?.list ?? []).map((p) => ({ value: p.id, label: p.name }))}
        />
      </Form.Item>
    </FormModal>
  );
}
