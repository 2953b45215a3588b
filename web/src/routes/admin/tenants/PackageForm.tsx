import { Form, Input, InputNumber, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  identityCalls,
  useIdentityMutation,
  type Package,
  type PackageInput,
} from '../../../api/identity';
import { MenuTreeSelect } from '../shared/MenuTreeSelect';
import { FormModal, topField } from '../shared/FormModal';

/** Creates or edits a tenant package: the menus its tenants may use and their storage quota. */
export function PackageForm({ pkg, onClose }: { pkg: Package | null; onClose: () => void }) {
  const { t } = useTranslation('admin');
  const [form] = Form.useForm<PackageInput>();
  const create = useIdentityMutation(identityCalls.createPackage, ['packages']);
  const update = useIdentityMutation(identityCalls.updatePackage, ['packages']);
  const save = async (values: PackageInput) => {
    const body = { ...values, menu_ids: values.menu_ids ?? [] };
    if (pkg) await update.mutateAsync({ id: pkg.id, body });
    else await create.mutateAsync(body);
  };
  return (
    <FormModal<PackageInput>
      title={pkg ? t('packages.editTitle', { name: pkg.name }) : t('packages.create')}
      form={form}
      initialValues={
        pkg
          ? {
              name: pkg.name,
              menu_ids: pkg.menu_ids,
              storage_quota_mb: pkg.storage_quota_mb,
              status: pkg.status,
            }
          : { menu_ids: [], storage_quota_mb: 0, status: 'active' }
      }
      save={save}
      saving={create.isPending || update.isPending}
      onClose={onClose}
      fieldOf={topField}
    >
      <Form.Item
        name="name"
        label={t('packages.name')}
        rules={[{ required: true, message: t('common.required', { label: t('packages.name') }) }]}
      >
        <Input autoComplete="off" />
      </Form.Item>
      <Form.Item name="menu_ids" label={t('packages.menus')} extra={t('packages.menusHelp')}>
        <MenuTreeSelect multiple aria-label={t('packages.menus')} />
      </Form.Item>
      <Form.Item name="storage_quota_mb" label={t('tenants.quota')} extra={t('tenants.quotaHelp')}>
        <InputNumber min={0} style={{ width: '100%' }} />
      </Form.Item>
      <Form.Item name="status" label={t('packages.status')}>
        <Select
          aria-label={t('packages.status')}
          options={[
            { value: 'active', label: t('status.active') },
            { value: 'disabled', label: t('status.disabled') },
          ]}
        />
      </Form.Item>
    </FormModal>
  );
}
