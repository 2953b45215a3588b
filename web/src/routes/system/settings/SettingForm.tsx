import { Form, Input, InputNumber, Select, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { systemCalls, useSystemMutation, type Setting } from '../../../api/systemAdmin';
import { FormModal } from '../../admin/shared/FormModal';
import {
  formOf,
  jsonProblem,
  MAX_STRING_SETTING,
  SETTING_KEY,
  SETTING_TYPES,
  valueField,
  valueOf,
  type SettingForm as Values,
} from './settingValue';

/**
 * Creates a setting or changes one (`PUT` by key): its type, a value in an input that fits the
 * type (JSON checked before it is sent) and a description. A new key that exists already is
 * refused here rather than silently replacing that setting.
 */
export function SettingForm({
  setting,
  onClose,
}: {
  setting: Setting | null;
  onClose: () => void;
}) {
  const { t } = useTranslation('system');
  const [form] = Form.useForm<Values>();
  const type = Form.useWatch('type', form) ?? setting?.type ?? 'string';
  const put = useSystemMutation(systemCalls.putSetting, 'settings');
  const required = (label: string) => ({
    required: true,
    message: t('common.required', { label }),
  });

  const keyIsFree = async (_: unknown, key: string | undefined) => {
    if (setting || !key || !SETTING_KEY.test(key)) return;
    if (await systemCalls.findSetting(key)) throw new Error(t('settings.keyTaken', { key }));
  };
  const validJson = async (_: unknown, text: string | undefined) => {
    const problem = jsonProblem(text);
    if (problem) throw new Error(t('settings.badJson', { reason: problem }));
  };
  const save = async (values: Values) => {
    const body = {
      type: values.type,
      value: valueOf(values),
      description: values.description ?? '',
    };
    await put.mutateAsync({ key: setting?.key ?? values.key, body });
  };

  return (
    <FormModal<Values>
      title={setting ? t('settings.editTitle', { key: setting.key }) : t('settings.create')}
      form={form}
      initialValues={formOf(setting)}
      save={save}
      saving={put.isPending}
      onClose={onClose}
      fieldOf={(field) => [field === 'value' ? valueField(form.getFieldValue('type')) : field]}
    >
      <Form.Item
        name="key"
        label={t('settings.key')}
        extra={setting ? undefined : t('settings.keyHelp')}
        validateTrigger={['onChange', 'onBlur']}
        rules={[
          required(t('settings.key')),
          { pattern: SETTING_KEY, message: t('settings.keyFormat') },
          { validator: keyIsFree, validateTrigger: 'onBlur' },
        ]}
      >
        <Input autoComplete="off" disabled={!!setting} />
      </Form.Item>
      <Form.Item name="type" label={t('settings.type')}>
        <Select
          aria-label={t('settings.type')}
          options={SETTING_TYPES.map((v) => ({ value: v, label: t(`settings.types.${v}`) }))}
        />
      </Form.Item>
      {type === 'string' && (
        <Form.Item name="text" label={t('settings.value')}>
          <Input.TextArea autoSize={{ minRows: 2, maxRows: 10 }} maxLength={MAX_STRING_SETTING} />
        </Form.Item>
      )}
      {type === 'number' && (
        <Form.Item
          name="number"
          label={t('settings.value')}
          rules={[required(t('settings.value'))]}
        >
          <InputNumber style={{ width: '100%' }} />
        </Form.Item>
      )}
      {type === 'boolean' && (
        <Form.Item name="flag" label={t('settings.value')} valuePropName="checked">
          <Switch checkedChildren={t('settings.on')} unCheckedChildren={t('settings.off')} />
        </Form.Item>
      )}
      {type === 'json' && (
        <Form.Item
          name="text"
          label={t('settings.value')}
          extra={t('settings.jsonHelp')}
          rules={[{ validator: validJson }]}
        >
          <Input.TextArea
            autoSize={{ minRows: 4, maxRows: 16 }}
            spellCheck={false}
            style={{ fontFamily: 'monospace' }}
          />
        </Form.Item>
      )}
      <Form.Item
        name="description"
        label={t('settings.description')}
        rules={[{ max: 500, message: t('common.tooLong', { max: 500 }) }]}
      >
        <Input.TextArea autoSize={{ minRows: 1, maxRows: 4 }} />
      </Form.Item>
    </FormModal>
  );
}
