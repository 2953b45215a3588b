import { Alert, Form, Input, InputNumber, Modal } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  identityCalls,
  useIdentityMutation,
  type DepartmentInput,
  type DepartmentNode,
} from '../../../api/identity';
import { DeptSelect } from '../../../form/DeptSelect';
import { PersonPicker } from '../../../form/PersonPicker';
import { showServerErrors } from '../../../form/serverErrors';

/** What the form opens for: a department to edit, or a new one under `parentId`. */
export type DepartmentEdit = { dept: DepartmentNode } | { parentId: number | null };

/** Creates or edits a department: name, parent, leader and place among its siblings. */
export function DepartmentForm({ edit, onClose }: { edit: DepartmentEdit; onClose: () => void }) {
  const { t } = useTranslation('admin');
  const [form] = Form.useForm<DepartmentInput>();
  const [problem, setProblem] = useState<string | null>(null);
  const create = useIdentityMutation(identityCalls.createDepartment, ['departments']);
  const update = useIdentityMutation(identityCalls.updateDepartment, ['departments']);
  const dept = 'dept' in edit ? edit.dept : null;
  const submit = async (values: DepartmentInput) => {
    setProblem(null);
    const body = {
      ...values,
      parent_id: values.parent_id ?? null,
      leader_id: values.leader_id ?? null,
    };
    try {
      if (dept) await update.mutateAsync({ id: dept.id, body });
      else await create.mutateAsync(body);
      onClose();
    } catch (error) {
      setProblem(showServerErrors(form, error));
    }
  };
  return (
    <Modal
      open
      title={dept ? t('departments.editTitle', { name: dept.name }) : t('departments.create')}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      confirmLoading={create.isPending || update.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      {problem && <Alert type="error" showIcon title={problem} style={{ marginBottom: 12 }} />}
      <Form<DepartmentInput>
        form={form}
        layout="vertical"
        onFinish={(v) => void submit(v)}
        initialValues={
          dept
            ? {
                name: dept.name,
                parent_id: dept.parent_id,
                leader_id: dept.leader_id,
                sort: dept.sort,
              }
            : { parent_id: 'parentId' in edit ? edit.parentId : null, sort: 0 }
        }
      >
        <Form.Item
          name="name"
          label={t('departments.name')}
          rules={[
            { required: true, message: t('common.required', { label: t('departments.name') }) },
          ]}
        >
          <Input autoComplete="off" />
        </Form.Item>
        <Form.Item
          name="parent_id"
          label={t('departments.parent')}
          extra={t('departments.parentHelp')}
        >
          <DeptSelect allowClear aria-label={t('departments.parent')} />
        </Form.Item>
        <Form.Item name="leader_id" label={t('departments.leader')}>
          <PersonPicker allowClear aria-label={t('departments.leader')} />
        </Form.Item>
        <Form.Item name="sort" label={t('departments.sort')}>
          <InputNumber style={{ width: '100%' }} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
