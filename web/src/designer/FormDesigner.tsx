import {
  ArrowDownOutlined,
  ArrowUpOutlined,
  DeleteOutlined,
  PlusOutlined,
} from '@ant-design/icons';
import { Button, Checkbox, Input, InputNumber, Select, Space, Table } from 'antd';
import { useTranslation } from 'react-i18next';
import type { FieldType, FormField, FormSchema } from '../api/bpm';

const TYPES: FieldType[] = [
  'input',
  'textarea',
  'number',
  'amount',
  'select',
  'radio',
  'date',
  'switch',
  'user',
  'dept',
];

/** The flow form as an editable table: key, label, type, required, options, range. */
export function FormDesigner({
  schema,
  onChange,
  problems,
}: {
  schema: FormSchema;
  onChange: (schema: FormSchema) => void;
  /** Server problems by field index (`form_schema.fields[i]...`). */
  problems: Record<number, string[]>;
}) {
  const { t } = useTranslation();
  const fields = schema.fields;
  const set = (i: number, patch: Partial<FormField>) =>
    onChange({
      fields: fields.map((f, j) => {
        if (j !== i) return f;
        const next = { ...f, ...patch } as FormField;
        // Options belong to choices, bounds to numbers: drop what the new type does not take.
        if (next.type !== 'select' && next.type !== 'radio') delete next.options;
        if (next.type !== 'number' && next.type !== 'amount') {
          delete next.min;
          delete next.max;
        }
        return next;
      }),
    });
  const move = (i: number, by: number) => {
    const next = [...fields];
    const [f] = next.splice(i, 1);
    next.splice(i + by, 0, f!);
    onChange({ fields: next });
  };
  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      <Table<FormField & { index: number }>
        size="small"
        rowKey="index"
        pagination={false}
        scroll={{ x: 'max-content' }}
        dataSource={fields.map((f, index) => ({ ...f, index }))}
        columns={[
          {
            title: t('designer.field.key'),
            render: (_, f) => (
              <Input
                aria-label={t('designer.field.key')}
                value={f.key}
                status={problems[f.index] ? 'error' : undefined}
                onChange={(e) => set(f.index, { key: e.target.value })}
                style={{ width: 120 }}
                data-testid={`field-key-${f.index}`}
              />
            ),
          },
          {
            title: t('designer.field.label'),
            render: (_, f) => (
              <Input
                aria-label={t('designer.field.label')}
                value={f.label}
                onChange={(e) => set(f.index, { label: e.target.value })}
                style={{ width: 140 }}
                data-testid={`field-label-${f.index}`}
              />
            ),
          },
          {
            title: t('designer.field.type'),
            render: (_, f) => (
              <Select<FieldType>
                aria-label={t('designer.field.type')}
                value={f.type}
                style={{ width: 120 }}
                onChange={(type) =>
                  set(f.index, {
                    type,
                    ...(type === 'select' || type === 'radio' ? { options: f.options ?? [] } : {}),
                  })
                }
                options={TYPES.map((ty) => ({ value: ty, label: t(`designer.type.${ty}`) }))}
                data-testid={`field-type-${f.index}`}
              />
            ),
          },
          {
            title: t('designer.field.required'),
            render: (_, f) => (
              <Checkbox
                aria-label={t('designer.field.required')}
                checked={f.required === true}
                onChange={(e) => set(f.index, { required: e.target.checked })}
              />
            ),
          },
          {
            title: t('designer.field.options'),
            render: (_, f) =>
              f.type === 'select' || f.type === 'radio' ? (
                <Select
                  mode="tags"
                  aria-label={t('designer.field.options')}
                  value={f.options ?? []}
                  open={false}
                  style={{ width: 180 }}
                  onChange={(options: string[]) => set(f.index, { options })}
                />
              ) : f.type === 'number' || f.type === 'amount' ? (
                <Space.Compact>
                  <InputNumber
                    aria-label={t('designer.field.min')}
                    placeholder={t('designer.field.min')}
                    value={f.min}
                    onChange={(v) => set(f.index, { min: v ?? undefined })}
                    style={{ width: 90 }}
                  />
                  <InputNumber
                    aria-label={t('designer.field.max')}
                    placeholder={t('designer.field.max')}
                    value={f.max}
                    onChange={(v) => set(f.index, { max: v ?? undefined })}
                    style={{ width: 90 }}
                  />
                </Space.Compact>
              ) : null,
          },
          {
            title: '',
            render: (_, f) => (
              <Space>
                <Button
                  size="small"
                  icon={<ArrowUpOutlined />}
                  aria-label={t('designer.up')}
                  disabled={f.index === 0}
                  onClick={() => move(f.index, -1)}
                />
                <Button
                  size="small"
                  icon={<ArrowDownOutlined />}
                  aria-label={t('designer.down')}
                  disabled={f.index === fields.length - 1}
                  onClick={() => move(f.index, 1)}
                />
                <Button
                  size="small"
                  danger
                  icon={<DeleteOutlined />}
                  aria-label={t('common.remove')}
                  onClick={() => onChange({ fields: fields.filter((_, j) => j !== f.index) })}
                />
              </Space>
            ),
          },
        ]}
        expandable={{
          expandedRowRender: (f) =>
            problems[f.index]?.map((p) => (
              <div key={p} role="alert" style={{ color: 'red' }}>
                {p}
              </div>
            )),
          rowExpandable: (f) => (problems[f.index]?.length ?? 0) > 0,
          expandedRowKeys: Object.keys(problems).map(Number),
          showExpandColumn: false,
        }}
      />
      <Button
        icon={<PlusOutlined />}
        data-testid="add-field"
        onClick={() =>
          onChange({
            fields: [
              ...fields,
              { key: `field${fields.length + 1}`, label: t('designer.newField'), type: 'input' },
            ],
          })
        }
      >
        {t('designer.addField')}
      </Button>
    </Space>
  );
}
