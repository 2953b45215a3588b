import { Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';

/**
 * The new password and its repetition, as every form that sets a password asks for them (the
 * password change, the reset by mail): `new_password` goes to the server, `confirm` must match.
 */
export function NewPasswordFields({ extra, autoFocus }: { extra?: string; autoFocus?: boolean }) {
  const { t } = useTranslation();
  const required = (label: string) => ({
    required: true,
    message: t('validation.required', { label }),
  });
  return (
    <>
      <Form.Item
        name="new_password"
        label={t('password.new')}
        extra={extra}
        rules={[required(t('password.new'))]}
      >
        <Input.Password autoComplete="new-password" autoFocus={autoFocus} />
      </Form.Item>
      <Form.Item
        name="confirm"
        label={t('password.confirm')}
        dependencies={['new_password']}
        rules={[
          required(t('password.confirm')),
          ({ getFieldValue }) => ({
            validator: (_, value) =>
              !value || getFieldValue('new_password') === value
                ? Promise.resolve()
                : Promise.reject(new Error(t('password.mismatch'))),
          }),
        ]}
      >
        <Input.Password autoComplete="new-password" />
      </Form.Item>
    </>
  );
}
