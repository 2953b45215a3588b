import { Alert, Form, Input, InputNumber, Modal, Select } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  identityCalls,
  useIdentityMutation,
  usePackages,
  type Tenant,
  type TenantInput,
} from '../../../api/identity';
import { showServerErrors } from '../../../form/serverErrors';

/**
 * Creates a tenant with its first administrator, or edits one (name, package, storage quota;
 * the code never changes).
 */
export function TenantForm({ tenant, onClose }: { tenant: Tenant | null; onClose: () => void }) {
  const { t } = useTranslation('admin');
  const [form] = Form.useForm<TenantInput>();
  const [problem, setProblem] = useState<string | null>(null);
  const packages = usePackages();
  const create = useIdentityMutation(identityCalls.createTenant, ['tenants', 'packages']);
  const update = useIdentityMutation(identityCalls.updateTenant, ['tenants', 'packages']);
  const required = (label: string) => ({
    required: true,
    message: t('common.required', { label }),
  });
  const submit = async (values: TenantInput) => {
    setProblem(null);
    const body = { ...values, package_id: values.package_id ?? null };
    try {
      if (tenant) {
        const { name, storage_quota_mb, package_id } = body;
        await update.mutateAsync({ id: tenant.id, body: { name, storage_quota_mb, package_id } });
      } else await create.mutateAsync(body);
      onClose();
    } catch (error) {
      setProblem(showServerErrors(form, error));
    }
  };
  return (
    <Modal
      open
      title={tenant ? t('tenants.editTitle', { name: tenant.name }) : t('tenants.create')}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      confirmLoading={create.isPending || update.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      {problem && <Alert type="error" showIcon title={problem} style={{ marginBottom: 12 }} />}
      <Form<TenantInput>
        form={form}
        layout="vertical"
        onFinish={(v) => void submit(v)}
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
        <Form.Item
          name="storage_quota_mb"
          label={t('tenants.quota')}
          extra={t('tenants.quotaHelp')}
        >
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
      </Form>
    </Modal>
  );
}
