import { Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { systemCalls, useSystemMutation, type Dict } from '../../../api/systemAdmin';
import { FormModal } from '../../admin/shared/FormModal';
import { DICT_CODE } from './dictItems';

interface Values {
  code: string;
  name: string;
}

/**
 * Creates a dictionary or renames one (code and name); its items are edited in the items
 * drawer, which a new dictionary opens in next (`onCreated`).
 */
export function DictForm({
  dict,
  onCreated,
  onClose,
}: {
  dict: Dict | null;
  onCreated?: (dict: Dict) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation('system');
  const [form] = Form.useForm<Values>();
  const create = useSystemMutation(systemCalls.createDict, 'dicts');
  const update = useSystemMutation(systemCalls.updateDict, 'dicts');
  const required = (label: string) => ({
    required: true,
    message: t('common.required', { label }),
  });
  const save = async (values: Values) => {
    if (dict) await update.mutateAsync({ id: dict.id, body: values });
    else onCreated?.(await create.mutateAsync(values));
  };
  return (
    <FormModal<Values>
      title={dict ? t('dicts.editTitle', { name: dict.name }) : t('dicts.create')}
      form={form}
      initialValues={dict ? { code: dict.code, name: dict.name } : {}}
      save={save}
      saving={create.isPending || update.isPending}
      onClose={onClose}
    >
      <Form.Item
        name="code"
        label={t('dicts.code')}
        extra={t('dicts.codeHelp')}
        rules={[required(t('dicts.code')), { pattern: DICT_CODE, message: t('dicts.codeFormat') }]}
      >
        <Input autoComplete="off" />
      </Form.Item>
      <Form.Item
        name="name"
        label={t('dicts.name')}
        rules={[
          required(t('dicts.name')),
          { max: 64, message: t('common.tooLong', { max: 64 }) },
          { whitespace: true, message: t('common.required', { label: t('dicts.name') }) },
        ]}
      >
        <Input autoComplete="off" />
      </Form.Item>
    </FormModal>
  );
}
