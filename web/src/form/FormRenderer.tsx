import { DatePicker, Form, Input, InputNumber, Radio, Select, Switch } from 'antd';
import type { Rule as AntRule } from 'antd/es/form';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { useCallback, useRef } from 'react';
import type { FileInfo, FormField, FormSchema } from '../api/bpm';
import { FileUpload } from './FileUpload';
import { DeptSelect } from './DeptSelect';
import { PersonPicker } from './PersonPicker';
import { fieldProblem, normalizeYuan } from './rules';

interface Props {
  schema: FormSchema;
  /** Fields not shown at all (a node's `hiddenFields`). */
  hidden?: readonly string[];
  /** When set, only these fields can be edited; the rest are shown read-only. */
  editable?: readonly string[] | null;
  disabled?: boolean;
  /** The files the form already holds, by field key (a detail's `files`), for their names. */
  files?: Record<string, readonly FileInfo[]>;
}

/** The flow form as antd fields, each validated by the server's rules (see rules.ts). */
export function FormRenderer({
  schema,
  hidden = [],
  editable = null,
  disabled = false,
  files = {},
}: Props) {
  return (
    <>
      {schema.fields
        .filter((f) => !hidden.includes(f.key))
        .map((field) => (
          <FieldItem
            key={field.key}
            field={field}
            known={files[field.key]}
            disabled={disabled || (editable !== null && !editable.includes(field.key))}
          />
        ))}
    </>
  );
}

function FieldItem({
  field,
  disabled,
  known,
}: {
  field: FormField;
  disabled: boolean;
  known?: readonly FileInfo[];
}) {
  const { t } = useTranslation();
  // Uploads under way: the form is not sent until they have ended.
  const uploading = useRef(0);
  const onPendingChange = useCallback((n: number) => {
    uploading.current = n;
  }, []);
  const rule: AntRule = {
    validator: async (_, value: unknown) => {
      if (field.type === 'file' && uploading.current > 0)
        throw new Error(t('form.file.wait', { label: field.label }));
      const problem = fieldProblem(field, value);
      if (field.type === 'file' && problem === 'range')
        throw new Error(t('form.file.atMost', { label: field.label, count: field.maxCount ?? 1 }));
      if (problem) {
        throw new Error(
          t(`validation.${problem}`, {
            label: field.label,
            min: field.min ?? (field.type === 'amount' ? 0 : ''),
            max: field.max ?? '',
          }),
        );
      }
    },
  };
  const common = {
    name: field.key,
    label: field.label,
    required: field.required === true,
    rules: [rule],
  };
  switch (field.type) {
    case 'textarea':
      return (
        <Form.Item {...common}>
          <Input.TextArea disabled={disabled} autoSize={{ minRows: 2, maxRows: 8 }} />
        </Form.Item>
      );
    case 'number':
      return (
        <Form.Item {...common}>
          <InputNumber
            disabled={disabled}
            min={field.min}
            max={field.max}
            style={{ width: '100%' }}
          />
        </Form.Item>
      );
    case 'amount':
      return (
        <Form.Item
          {...common}
          // Yuan as typed text (the server converts to cents exactly), two decimals once left.
          getValueFromEvent={(e: { target: { value: string } }) => e.target.value}
          extra={t('form.amountHint')}
        >
          <AmountInput disabled={disabled} />
        </Form.Item>
      );
    case 'select':
      return (
        <Form.Item {...common}>
          <Select
            disabled={disabled}
            allowClear
            options={(field.options ?? []).map((o) => ({ value: o, label: o }))}
          />
        </Form.Item>
      );
    case 'radio':
      return (
        <Form.Item {...common}>
          <Radio.Group
            disabled={disabled}
            options={(field.options ?? []).map((o) => ({ value: o, label: o }))}
          />
        </Form.Item>
      );
    case 'date':
      return (
        <Form.Item
          {...common}
          getValueProps={(v: unknown) => ({ value: typeof v === 'string' && v ? dayjs(v) : null })}
          normalize={(d: Dayjs | null) => (d ? d.format('YYYY-MM-DD') : null)}
        >
          <DatePicker disabled={disabled} style={{ width: '100%' }} />
        </Form.Item>
      );
    case 'user':
      // One person of the tenant, by name (the value is their user id).
      return (
        <Form.Item {...common}>
          <PersonPicker disabled={disabled} allowClear />
        </Form.Item>
      );
    case 'dept':
      return (
        <Form.Item {...common}>
          <DeptSelect disabled={disabled} allowClear />
        </Form.Item>
      );
    case 'file':
      return (
        <Form.Item {...common}>
          <FileUpload
            aria-label={t('form.file.chooseFor', { label: field.label })}
            known={known}
            maxCount={field.maxCount ?? 1}
            accept={field.accept}
            disabled={disabled}
            onPendingChange={onPendingChange}
          />
        </Form.Item>
      );
    case 'switch':
      return (
        <Form.Item {...common} valuePropName="checked" initialValue={false}>
          <Switch disabled={disabled} />
        </Form.Item>
      );
    default:
      return (
        <Form.Item {...common}>
          <Input disabled={disabled} />
        </Form.Item>
      );
  }
}

function AmountInput({
  value,
  onChange,
  ...rest
}: {
  value?: string;
  onChange?: (e: { target: { value: string } }) => void;
  disabled?: boolean;
  id?: string;
}) {
  return (
    <Input
      {...rest}
      inputMode="decimal"
      prefix="¥"
      value={value ?? ''}
      onChange={(e) => onChange?.({ target: { value: e.target.value } })}
      onBlur={() => value && onChange?.({ target: { value: normalizeYuan(value) } })}
      style={{ width: '100%' }}
    />
  );
}
