import { Alert, Form, Input, InputNumber, Modal, Select } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  identityCalls,
  useIdentityMutation,
  type Post,
  type PostInput,
} from '../../../api/identity';
import { showServerErrors } from '../../../form/serverErrors';

/** Creates or edits a post (job position): code, name, order and status. */
export function PostForm({ post, onClose }: { post: Post | null; onClose: () => void }) {
  const { t } = useTranslation('admin');
  const [form] = Form.useForm<PostInput>();
  const [problem, setProblem] = useState<string | null>(null);
  const create = useIdentityMutation(identityCalls.createPost, ['posts']);
  const update = useIdentityMutation(identityCalls.updatePost, ['posts']);
  const required = (label: string) => ({
    required: true,
    message: t('common.required', { label }),
  });
  const submit = async (values: PostInput) => {
    setProblem(null);
    try {
      if (post) await update.mutateAsync({ id: post.id, body: values });
      else await create.mutateAsync(values);
      onClose();
    } catch (error) {
      setProblem(showServerErrors(form, error));
    }
  };
  return (
    <Modal
      open
      title={post ? t('posts.editTitle', { name: post.name }) : t('posts.create')}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      confirmLoading={create.isPending || update.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      {problem && <Alert type="error" showIcon title={problem} style={{ marginBottom: 12 }} />}
      <Form<PostInput>
        form={form}
        layout="vertical"
        onFinish={(v) => void submit(v)}
        initialValues={
          post
            ? { code: post.code, name: post.name, sort: post.sort, status: post.status }
            : { sort: 0, status: 'active' }
        }
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
      </Form>
    </Modal>
  );
}
