import { Form, Input, InputNumber } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  identityCalls,
  useIdentityMutation,
  type DepartmentInput,
  type DepartmentNode,
} from '../../../api/identity';
import { DeptSelect } from '../../../form/DeptSelect';
import { PersonPicker } from '../../../form/PersonPicker';
import { FormModal } from '../shared/FormModal';

/** What the form opens for: a department to edit, or a new one under `parentId`. */
export type DepartmentEdit = { dept: DepartmentNode } | { parentId: number | null };

/** Creates or edits a department: name, parent, leader and place among its siblings. */
export function DepartmentForm({ edit, onClose }: { edit: DepartmentEdit; onClose: () => void }) {
  const { t } = useTranslation('admin');
  const [form] = Form.useForm<DepartmentInput>();
  const create = useIdentityMutation(identityCalls.createDepartment, ['departments']);
  const update = useIdentityMutation(identityCalls.updateDepartment, ['departments']);
  const dept = 'dept' in edit ? edit.dept : null;
  const save = async (values: DepartmentInput) => {
    const body = {
      ...values,
      parent_id: values.parent_id ?? null,
      leader_id: values.leader_id ?? null,
    };
    if (dept) await update.mutateAsync({ id: dept.id, body });
    else await create.mutateAsync(body);
  };
  return (
    <FormModal<DepartmentInput>
      title={dept ? t('departments.editTitle', { name: dept.name }) : t('departments.create')}
      form={form}
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
      save={save}
      saving={create.isPending || update.isPending}
      onClose={onClose}
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
    </FormModal>
  );
}
