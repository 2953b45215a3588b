import {
  ArrowDownOutlined,
  ArrowUpOutlined,
  DeleteOutlined,
  PlusOutlined,
} from '@ant-design/icons';
import { Button, Card, Checkbox, Col, Form, Input, InputNumber, Row, Select, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ColumnType } from '../../../api/codegen';
import { COLUMN_TYPES, NEW_COLUMN, SEARCHABLE_TYPES } from './spec';

/** The most columns the generator takes. */
const MAX_COLUMNS = 40;

/**
 * The table's columns: each with its name, type, length (strings), description and whether it
 * is required and searchable; added, removed and moved up or down. The server's problems land
 * on the field they name (`columns.2.name`).
 */
export function ColumnsEditor() {
  const { t } = useTranslation('systemTools');
  const required = (label: string) => ({
    required: true,
    whitespace: true,
    message: t('codegen.fieldRequired', { label }),
  });
  return (
    <Form.List
      name="columns"
      rules={[
        {
          validator: async (_, columns?: unknown[]) => {
            if (!columns || columns.length === 0) throw new Error(t('codegen.columnsRequired'));
          },
        },
      ]}
    >
      {(fields, { add, remove, move }, { errors }) => (
        <Space orientation="vertical" size={12} style={{ width: '100%' }}>
          {fields.map((field, index) => {
            const n = index + 1;
            return (
              <Card
                key={field.key}
                size="small"
                title={t('codegen.column', { n })}
                data-testid={`column-${index}`}
                extra={
                  <Space size={0}>
                    <Button
                      type="text"
                      size="small"
                      icon={<ArrowUpOutlined />}
                      aria-label={t('codegen.moveUp', { n })}
                      title={t('codegen.moveUp', { n })}
                      disabled={index === 0}
                      onClick={() => move(index, index - 1)}
                    />
                    <Button
                      type="text"
                      size="small"
                      icon={<ArrowDownOutlined />}
                      aria-label={t('codegen.moveDown', { n })}
                      title={t('codegen.moveDown', { n })}
                      disabled={index === fields.length - 1}
                      onClick={() => move(index, index + 1)}
                    />
                    <Button
                      type="text"
                      size="small"
                      danger
                      icon={<DeleteOutlined />}
                      aria-label={t('codegen.removeColumn', { n })}
                      title={t('codegen.removeColumn', { n })}
                      disabled={fields.length === 1}
                      onClick={() => remove(index)}
                    />
                  </Space>
                }
              >
                <Row gutter={12}>
                  <Col xs={24} sm={12} lg={6}>
                    <Form.Item
                      name={[field.name, 'name']}
                      label={t('codegen.columnName')}
                      rules={[required(t('codegen.columnName'))]}
                    >
                      <Input autoComplete="off" spellCheck={false} maxLength={40} />
                    </Form.Item>
                  </Col>
                  <Col xs={24} sm={12} lg={5}>
                    <Form.Item name={[field.name, 'type']} label={t('codegen.columnType')}>
                      <Select
                        options={COLUMN_TYPES.map((type) => ({
                          value: type,
                          label: t(`codegen.types.${type}`),
                        }))}
                      />
                    </Form.Item>
                  </Col>
                  <Form.Item noStyle dependencies={[['columns', field.name, 'type']]}>
                    {({ getFieldValue }) => {
                      const type = getFieldValue(['columns', field.name, 'type']) as ColumnType;
                      const searchable = SEARCHABLE_TYPES.includes(type);
                      return (
                        <>
                          {type === 'string' && (
                            <Col xs={24} sm={12} lg={4}>
                              <Form.Item
                                name={[field.name, 'max_length']}
                                label={t('codegen.maxLength')}
                                tooltip={t('codegen.maxLengthHelp')}
                              >
                                <InputNumber
                                  min={16}
                                  max={10000}
                                  precision={0}
                                  controls={false}
                                  placeholder="255"
                                  style={{ width: '100%' }}
                                />
                              </Form.Item>
                            </Col>
                          )}
                          <Col xs={24} sm={12} lg={type === 'string' ? 9 : 13}>
                            <Form.Item
                              name={[field.name, 'description']}
                              label={t('codegen.description')}
                            >
                              <Input autoComplete="off" maxLength={200} />
                            </Form.Item>
                          </Col>
                          <Col xs={24}>
                            <Space wrap size={16}>
                              <Form.Item
                                name={[field.name, 'required']}
                                valuePropName="checked"
                                noStyle
                              >
                                <Checkbox>{t('codegen.required')}</Checkbox>
                              </Form.Item>
                              <Form.Item
                                name={[field.name, 'searchable']}
                                valuePropName="checked"
                                extra={searchable ? undefined : t('codegen.notSearchable')}
                                style={{ marginBottom: 0 }}
                              >
                                <Checkbox disabled={!searchable}>
                                  {t('codegen.searchable')}
                                </Checkbox>
                              </Form.Item>
                            </Space>
                          </Col>
                        </>
                      );
                    }}
                  </Form.Item>
                </Row>
              </Card>
            );
          })}
          <Form.ErrorList errors={errors} />
          <Button
            icon={<PlusOutlined />}
            onClick={() => add({ ...NEW_COLUMN })}
            disabled={fields.length >= MAX_COLUMNS}
            data-testid="add-column"
          >
            {t('codegen.addColumn')}
          </Button>
        </Space>
      )}
    </Form.List>
  );
}
