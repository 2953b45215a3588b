import { Alert, Form, Modal, type FormInstance } from 'antd';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { showServerErrors } from '../../../form/serverErrors';

/**
 * A create-or-edit dialog around one form: Save submits it through `save`, a success closes the
 * dialog, the server's field errors land on their fields and anything else shows above the form.
 */
export function FormModal<T extends object>({
  title,
  form,
  initialValues,
  save,
  saving,
  onClose,
  fieldOf,
  children,
}: {
  title: ReactNode;
  form: FormInstance<T>;
  initialValues: Partial<T>;
  save: (values: T) => Promise<unknown>;
  saving: boolean;
  onClose: () => void;
  /** Which form field a server error's field names (nested ones: their first segment). */
  fieldOf?: (field: string) => (string | number)[];
  children: ReactNode;
}) {
  const { t } = useTranslation('admin');
  const [problem, setProblem] = useState<string | null>(null);
  const submit = async (values: T) => {
    setProblem(null);
    try {
      await save(values);
      onClose();
    } catch (error) {
      setProblem(showServerErrors(form, error, fieldOf));
    }
  };
  return (
    <Modal
      open
      title={title}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      confirmLoading={saving}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      {problem && <Alert type="error" showIcon title={problem} style={{ marginBottom: 12 }} />}
      <Form<T>
        form={form}
        layout="vertical"
        onFinish={(v) => void submit(v)}
        initialValues={initialValues}
      >
        {children}
      </Form>
    </Modal>
  );
}

/** The first segment of a nested field name (`menu_ids.3` → `menu_ids`). */
export const topField = (field: string) => [field.split('.')[0]!];
