import {
  ArrowDownOutlined,
  ArrowUpOutlined,
  DeleteOutlined,
  PlusOutlined,
} from '@ant-design/icons';
import { Alert, App, Button, Drawer, Form, Input, Space, Switch, Typography, theme } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { systemCalls, useSystemMutation, type Dict } from '../../../api/systemAdmin';
import { EmptyState } from '../../../components/states';
import { showServerErrors } from '../../../form/serverErrors';
import {
  duplicateRows,
  itemFieldPath,
  itemsBody,
  MAX_DICT_ITEMS,
  rowsOf,
  type ItemRow,
} from './dictItems';

interface Values {
  items: ItemRow[];
}

const NEW_ROW: ItemRow = { value: '', label: '', label_en: '', enabled: true };

/**
 * A dictionary's items in order: added, removed, moved up and down, each with its value, label,
 * English label and whether selects offer it; saved all at once (`PUT` with `items`, the order
 * shown becoming `sort`). Read only for a caller who may not change dictionaries.
 */
export function DictItemsDrawer({
  dict,
  editable,
  onClose,
}: {
  dict: Dict;
  editable: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation('system');
  const { token } = theme.useToken();
  const [form] = Form.useForm<Values>();
  const [problem, setProblem] = useState<string | null>(null);
  const update = useSystemMutation(systemCalls.updateDict, 'dicts');
  const { message } = App.useApp();
  const required = (label: string) => ({
    required: true,
    whitespace: true,
    message: t('common.required', { label }),
  });
  const short = { max: 100, message: t('common.tooLong', { max: 100 }) };

  const unique = (index: number) => async (_: unknown, value: string | undefined) => {
    if (duplicateRows(form.getFieldValue('items') as ItemRow[]).includes(index))
      throw new Error(t('dicts.duplicate', { value: value?.trim() }));
  };
  const submit = async (values: Values) => {
    setProblem(null);
    try {
      await update.mutateAsync({ id: dict.id, body: { items: itemsBody(values.items ?? []) } });
      void message.success(t('dicts.itemsSaved', { name: dict.name }));
      onClose();
    } catch (error) {
      setProblem(showServerErrors(form, error, itemFieldPath));
    }
  };

  return (
    <Drawer
      open
      size="large"
      title={t('dicts.itemsTitle', { name: dict.name, code: dict.code })}
      onClose={onClose}
      destroyOnHidden
      extra={
        editable && (
          <Space>
            <Button onClick={onClose}>{t('common.cancel', { ns: 'admin' })}</Button>
            <Button type="primary" loading={update.isPending} onClick={() => form.submit()}>
              {t('common.save', { ns: 'admin' })}
            </Button>
          </Space>
        )
      }
    >
      <Typography.Paragraph type="secondary">{t('dicts.itemsHelp')}</Typography.Paragraph>
      {problem && <Alert type="error" showIcon title={problem} style={{ marginBottom: 12 }} />}
      <Form<Values>
        form={form}
        layout="vertical"
        disabled={!editable}
        initialValues={{ items: rowsOf(dict.items) }}
        onFinish={(v) => void submit(v)}
      >
        <Form.List name="items">
          {(fields, { add, remove, move }) => (
            <>
              {fields.length === 0 && <EmptyState text={t('dicts.noItems')} />}
              <ol style={{ listStyle: 'none', padding: 0, margin: 0 }} data-testid="dict-items">
                {fields.map((field, i) => {
                  const n = i + 1;
                  return (
                    <li
                      key={field.key}
                      aria-label={t('dicts.itemNumber', { n })}
                      style={{
                        border: `1px solid ${token.colorBorderSecondary}`,
                        borderRadius: token.borderRadius,
                        padding: '8px 12px 0',
                        marginBottom: 8,
                      }}
                    >
                      <Space wrap align="start" size={[12, 0]}>
                        <Form.Item
                          name={[field.name, 'value']}
                          label={t('dicts.value')}
                          rules={[required(t('dicts.value')), short, { validator: unique(i) }]}
                        >
                          <Input autoComplete="off" style={{ width: 130 }} />
                        </Form.Item>
                        <Form.Item
                          name={[field.name, 'label']}
                          label={t('dicts.label')}
                          rules={[required(t('dicts.label')), short]}
                        >
                          <Input autoComplete="off" style={{ width: 160 }} />
                        </Form.Item>
                        <Form.Item
                          name={[field.name, 'label_en']}
                          label={t('dicts.labelEn')}
                          rules={[short]}
                        >
                          <Input autoComplete="off" style={{ width: 160 }} />
                        </Form.Item>
                        <Form.Item
                          name={[field.name, 'enabled']}
                          label={t('dicts.enabled')}
                          valuePropName="checked"
                        >
                          <Switch />
                        </Form.Item>
                        {editable && (
                          <Space size={0} style={{ marginTop: 30 }}>
                            <Button
                              type="text"
                              icon={<ArrowUpOutlined />}
                              aria-label={t('dicts.moveUp', { n })}
                              disabled={i === 0}
                              onClick={() => move(i, i - 1)}
                            />
                            <Button
                              type="text"
                              icon={<ArrowDownOutlined />}
                              aria-label={t('dicts.moveDown', { n })}
                              disabled={i === fields.length - 1}
                              onClick={() => move(i, i + 1)}
                            />
                            <Button
                              type="text"
                              danger
                              icon={<DeleteOutlined />}
                              aria-label={t('dicts.remove', { n })}
                              onClick={() => remove(i)}
                            />
                          </Space>
                        )}
                      </Space>
                    </li>
                  );
                })}
              </ol>
              {editable && (
                <Button
                  type="dashed"
                  block
                  icon={<PlusOutlined />}
                  disabled={fields.length >= MAX_DICT_ITEMS}
                  onClick={() => add({ ...NEW_ROW })}
                >
                  {fields.length >= MAX_DICT_ITEMS
                    ? t('dicts.tooMany', { max: MAX_DICT_ITEMS })
                    : t('dicts.addItem')}
                </Button>
              )}
            </>
          )}
        </Form.List>
      </Form>
    </Drawer>
  );
}
