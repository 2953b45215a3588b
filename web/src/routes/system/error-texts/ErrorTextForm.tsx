import { Descriptions, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { systemCalls, useSystemMutation, type ErrorText } from '../../../api/systemAdmin';
import { FormModal } from '../../admin/shared/FormModal';

interface Values {
  message: string;
}

const MAX_TEXT = 200;

/** Sets the text of one error code (shown as written, in every language). */
export function ErrorTextForm({
  entry,
  consoleText,
  onClose,
}: {
  entry: ErrorText;
  /** The console's own text for the code in the reader's language ('' when it has none). */
  consoleText: string;
  onClose: () => void;
}) {
  const { t } = useTranslation('system');
  const [form] = Form.useForm<Values>();
  const update = useSystemMutation(systemCalls.updateErrorText, 'errorTexts');
  const label = t('errorTexts.text');
  return (
    <FormModal<Values>
      title={t('errorTexts.editTitle', { code: entry.code })}
      form={form}
      initialValues={{ message: entry.overridden ? entry.message : consoleText }}
      save={(values) => update.mutateAsync({ code: entry.code, message: values.message.trim() })}
      saving={update.isPending}
      onClose={onClose}
    >
      <Descriptions size="small" column={1} style={{ marginBottom: 12 }}>
        <Descriptions.Item label={t('errorTexts.consoleText')}>
          {consoleText || '-'}
        </Descriptions.Item>
        <Descriptions.Item label={t('errorTexts.defaultMessage')}>
          {entry.default_message}
        </Descriptions.Item>
      </Descriptions>
      <Form.Item
        name="message"
        label={label}
        extra={t('errorTexts.textHelp')}
        rules={[
          { required: true, whitespace: true, message: t('common.required', { label }) },
          { max: MAX_TEXT, message: t('common.tooLong', { max: MAX_TEXT }) },
        ]}
      >
        <Input.TextArea autoSize={{ minRows: 2, maxRows: 6 }} maxLength={MAX_TEXT} showCount />
      </Form.Item>
    </FormModal>
  );
}
