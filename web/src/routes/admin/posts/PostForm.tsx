import { Form, Input, InputNumber, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  identityCalls,
  useIdentityMutation,
  type Post,
  type PostInput,
} from '../../../api/identity';
import { FormModal } from '../shared/FormModal';

/** Creates or edits a post (job position): code, name, order and status. */
export function PostForm({ post, onClose }: { post: Post | null; onClose: () => void }) {
  const { t } = useTranslation('admin');
  const [form] = Form.useForm<PostInput>();
  const create = useIdentityMutation(identityCalls.createPost, ['posts']);
  const update = useIdentityMutation(identityCalls.updatePost, ['posts']);
  const required = (label: string) => ({
    required: true,
    message: t('common.required', { label }),
  });
  const save = async (values: PostInput) => {
    if (post) await update.mutateAsync({ id: post.id, body: values });
    else await create.mutateAsync(values);
  };
  return (
    <FormModal<PostInput>
      title={post ? t('posts.editTitle', { name: post.name }) : t('posts.create')}
      form={form}
      initialValues={
        post
          ? { code: post.code, name: post.name, sort: post.sort, status: post.status }
          : { sort: 0, status: 'active' }
      }
      save={save}
      saving={create.isPending || update.isPending}
      onClose={onClose}
    >
      <Form.Item name="code" label={t('posts.code')} rules={[required(t('posts.code'))]}>
        <Input autoComplete="off" />
      </Form.Item>
      <Form.Item name="name" label={t('posts.name')} rules={[required(t('posts.name'))]}>
        <Input autoComplete="off" />
      </Form.Item>
      <Form.Item name="sort" label={t('posts.sort')}>
        <InputNumber style={{ width: '100%' }} />
      </Form.Item>
      <Form.Item name="status" label={t('posts.status')}>
        <Select
          aria-label={t('posts.status')}
          options={[
            { value: 'active', label: t('status.active') },
            { value: 'disabled', label: t('status.disabled') },
          ]}
        />
      </Form.Item>
    </FormModal>
  );
}
