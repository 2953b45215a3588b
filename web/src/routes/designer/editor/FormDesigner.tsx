import {
  ArrowDownOutlined,
  ArrowUpOutlined,
  DeleteOutlined,
  PlusOutlined,
} from '@ant-design/icons';
import { Button, Checkbox, Input, InputNumber, Select, Space, Table, Typography } from 'antd';
import { MAX_FILE_COUNT } from '@engine/form';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FieldType, FormField, FormSchema } from '../../../api/bpm';

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
  'file',
];

/** Common accepted types offered for a file field; any other `type/subtype` can be typed. */
export const ACCEPT_CHOICES: readonly { value: string; key: string }[] = [
  { value: 'application/pdf', key: 'pdf' },
  { value: 'image/*', key: 'image' },
  { value: 'application/msword', key: 'doc' },
  { value: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', key: 'docx' },
  { value: 'application/vnd.ms-excel', key: 'xls' },
  { value: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', key: 'xlsx' },
  { value: 'text/plain', key: 'text' },
  { value: 'application/zip', key: 'zip' },
];
/** An accepted type as the server takes it: `type/subtype` or `type/*`, lower case. */
const ACCEPT_PATTERN = /^[a-z0-9][a-z0-9.+-]{0,62}\/(?:[a-z0-9][a-z0-9.+-]{0,62}|\*)$/;

/** Typed accepted types, lower-cased; the ones that are not a content type are set apart. */
export function cleanAccept(values: readonly string[]): { accept: string[]; invalid: string[] } {
  const accept: string[] = [];
  const invalid: string[] = [];
  for (const raw of values) {
    const v = raw.trim().toLowerCase();
    if (!v) continue;
    if (!ACCEPT_PATTERN.test(v)) invalid.push(raw.trim());
    else if (!accept.includes(v)) accept.push(v);
  }
  return { accept, invalid };
}

/**
 * A field with a change applied, without the attributes its type does not take: the server
 * refuses options, bounds, maxCount or accept on the wrong type (and an empty accept list).
 */
export function patchField(f: FormField, patch: Partial<FormField>): FormField {
  const next = { ...f, ...patch } as FormField;
  if (next.type !== 'select' && next.type !== 'radio') delete next.options;
  if (next.type !== 'number' && next.type !== 'amount') {
    delete next.min;
    delete next.max;
  }
  if (next.type !== 'file') {
    delete next.maxCount;
    delete next.accept;
  } else if (next.accept?.length === 0) delete next.accept;
  for (const k of ['min', 'max', 'maxCount', 'accept'] as const)
    if (next[k] === undefined) delete next[k];
  return next;
}

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
    onChange({ fields: fields.map((f, j) => (j === i ? patchField(f, patch) : f)) });
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
                // Every type in the list, so the last ones are reached by scrolling (and found).
                virtual={false}
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
              ) : f.type === 'file' ? (
                <FileSettings field={f} onChange={(patch) => set(f.index, patch)} />
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

/** A file field's settings: how many files it holds, and which types it takes (any if none). */
function FileSettings({
  field,
  onChange,
}: {
  field: FormField & { index: number };
  onChange: (patch: Partial<FormField>) => void;
}) {
  const { t } = useTranslation();
  const [invalid, setInvalid] = useState<string[]>([]);
  const known = new Set(ACCEPT_CHOICES.map((c) => c.value));
  const choices = [
    ...ACCEPT_CHOICES.map((c) => ({
      value: c.value,
      label: t(`designer.accept.${c.key}`),
    })),
    // Typed types are shown as typed.
    ...(field.accept ?? []).filter((a) => !known.has(a)).map((a) => ({ value: a, label: a })),
  ];
  return (
    <Space orientation="vertical" size={4}>
      <Space size={4}>
        <Typography.Text>{t('designer.field.maxCount')}</Typography.Text>
        <InputNumber
          aria-label={t('designer.field.maxCount')}
          min={1}
          max={MAX_FILE_COUNT}
          precision={0}
          placeholder="1"
          value={field.maxCount}
          onChange={(v) => onChange({ maxCount: v ?? undefined })}
          style={{ width: 80 }}
          data-testid={`field-max-count-${field.index}`}
        />
      </Space>
      <Select
        mode="tags"
        aria-label={t('designer.field.accept')}
        placeholder={t('designer.field.acceptAny')}
        value={field.accept ?? []}
        options={choices}
        status={invalid.length ? 'warning' : undefined}
        style={{ width: 260 }}
        tokenSeparators={[',', ' ']}
        onChange={(values: string[]) => {
          const cleaned = cleanAccept(values);
          setInvalid(cleaned.invalid);
          onChange({ accept: cleaned.accept });
        }}
        data-testid={`field-accept-${field.index}`}
      />
      {invalid.length > 0 && (
        <Typography.Text type="warning" role="alert">
          {t('designer.field.acceptInvalid', { values: invalid.join(', ') })}
        </Typography.Text>
      )}
    </Space>
  );
}
