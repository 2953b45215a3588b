import { UploadOutlined } from '@ant-design/icons';
import { Button, Form, Input, Upload } from 'antd';
import { useTranslation } from 'react-i18next';
import { monitorCalls, useMonitorMutation, type CertificateInput } from '../../../api/monitor';
import { FormModal } from '../../admin/shared/FormModal';

/** PEM text pasted, or read from a file the administrator picks (nothing is sent until Save). */
function PemField({
  id,
  value,
  onChange,
  fileLabel,
  accept,
}: {
  id?: string;
  value?: string;
  onChange?: (value: string) => void;
  fileLabel: string;
  accept: string;
}) {
  return (
    <>
      <Input.TextArea
        id={id}
        value={value}
        onChange={(e) => onChange?.(e.target.value)}
        rows={5}
        spellCheck={false}
        autoComplete="off"
        placeholder="-----BEGIN …-----"
        style={{ fontFamily: 'monospace', fontSize: 12 }}
      />
      <Upload
        accept={accept}
        showUploadList={false}
        maxCount={1}
        beforeUpload={(file) => {
          void file.text().then((text) => onChange?.(text));
          return Upload.LIST_IGNORE;
        }}
      >
        <Button size="small" icon={<UploadOutlined />} style={{ marginTop: 8 }}>
          {fileLabel}
        </Button>
      </Upload>
    </>
  );
}

/** Uploads an edge certificate: a name, the PEM certificate (and chain), its key and passphrase. */
export function CertificateForm({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation('monitor');
  const [form] = Form.useForm<CertificateInput>();
  const upload = useMonitorMutation(monitorCalls.uploadCertificate, ['certificates', 'alerts']);
  const required = (label: string) => ({ required: true, message: t('rules.required', { label }) });
  const save = async (values: CertificateInput) => {
    await upload.mutateAsync({
      name: values.name.trim(),
      certificate: values.certificate,
      private_key: values.private_key,
      ...(values.passphrase ? { passphrase: values.passphrase } : {}),
    });
  };
  return (
    <FormModal<CertificateInput>
      title={t('certificates.uploadTitle')}
      form={form}
      initialValues={{}}
      save={save}
      saving={upload.isPending}
      onClose={onClose}
    >
      <Form.Item
        name="name"
        label={t('certificates.name')}
        rules={[required(t('certificates.name'))]}
      >
        <Input autoComplete="off" maxLength={100} />
      </Form.Item>
      <Form.Item
        name="certificate"
        label={t('certificates.certificate')}
        extra={t('certificates.certificateHelp')}
        rules={[required(t('certificates.certificate'))]}
      >
        <PemField fileLabel={t('certificates.certificateFile')} accept=".pem,.crt,.cer" />
      </Form.Item>
      <Form.Item
        name="private_key"
        label={t('certificates.privateKey')}
        extra={t('certificates.privateKeyHelp')}
        rules={[required(t('certificates.privateKey'))]}
      >
        <PemField fileLabel={t('certificates.privateKeyFile')} accept=".pem,.key" />
      </Form.Item>
      <Form.Item
        name="passphrase"
        label={t('certificates.passphrase')}
        extra={t('certificates.passphraseHelp')}
      >
        <Input.Password autoComplete="off" />
      </Form.Item>
    </FormModal>
  );
}
