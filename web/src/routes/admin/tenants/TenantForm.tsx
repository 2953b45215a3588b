import { Form, Input, InputNumber, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  identityCalls,
  useIdentityMutation,
  usePackages,
  type Tenant,
  type TenantInput,
} from '../../../api/identity';
import { FormModal } from '../shared/FormModal';

/**
 * Creates a tenant with its first administrator, or edits one (name, package, storage quota;
 * the code never changes).
 */
export function TenantForm({ tenant, onClose }: { tenant: Tenant | null; onClose: () => void }) {
  const { t } = useTranslation('admin');
  const [form] = Form.useForm<TenantInput>();
  const packages = usePackages();
  const create = useIdentityMutation(identityCalls.createTenant, ['tenants', 'packages']);
  const update = useIdentityMutation(identityCalls.updateTenant, ['tenants', 'packages']);
  const required = (label: string) => ({
    required: true,
    message: t('common.required', { label }),
  });
  const save = async (values: TenantInput) => {
    const body = { ...values, package_id: values.package_id ?? null };
    if (tenant) {
      const { name, storage_quota_mb, package_id } = body;
      await update.mutateAsync({ id: tenant.id, body: { name, storage_quota_mb, package_id } });
    } else await create.mutateAsync(body);
  };
  return (
    <FormModal<TenantInput>
      title={tenant ? t('tenants.editTitle', { name: tenant.name }) : t('tenants.create')}
      form={form}
      initialValues={
        tenant
          ? {
              code: tenant.code,
              name: tenant.name,
              storage_quota_mb: tenant.storage_quota_mb,
              package_id: tenant.package_id,
            }
          : { storage_quota_mb: 0, package_id: null }
      }
      save={save}
      saving={create.isPending || update.isPending}
      onClose={onClose}
    >
      <Form.Item
        name="code"
        label={t('tenants.code')}
        extra={t('tenants.codeHelp')}
        rules={[required(t('tenants.code'))]}
      >
        <Input autoComplete="off" disabled={tenant !== null} />
      </Form.Item>
      <Form.Item name="name" label={t('tenants.name')} rules={[required(t('tenants.name'))]}>
        <Input autoComplete="off" />
      </Form.Item>
      <Form.Item name="package_id" label={t('tenants.package')}>
        <Select
          allowClear
          aria-label={t('tenants.package')}
          placeholder={t('tenants.noPackage')}
          loading={packages.isPending}
          options={(packages.data ?? []).map((p) => ({ value: p.id, label: p.name }))}
        />
      </Form.Item>
      <Form.Item name="storage_quota_mb" label={t('tenants.quota')} extra={t('tenants.quotaHelp')}>
        <InputNumber min={0} style={{ width: '100%' }} />
      </Form.Item>
      {!tenant && (
        <>
          <Form.Item
            name="admin_username"
            label={t('tenants.adminUsername')}
            rules={[required(t('tenants.adminUsername'))]}
          >
            <Input autoComplete="off" />
          </Form.Item>
          <Form.Item
            name="admin_password"
            label={t('tenants.adminPassword')}
            rules={[required(t('tenants.adminPassword'))]}
          >
            <Input.Password autoComplete="new-password" />
          </Form.Item>
        </>
      )}
    </FormModal>
  );
}
