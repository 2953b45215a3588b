import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Input, Radio, Select, Space, theme } from 'antd';
import { MAX_CONDITION_DEPTH } from '@engine/validate-condition';
import { useTranslation } from 'react-i18next';
import type { FormSchema } from '../../../api/bpm';
import { DeptSelect } from '../../../form/DeptSelect';
import { PersonPicker } from '../../../form/PersonPicker';
import {
  idsOfText,
  isGroup,
  isIdField,
  opAfterFieldChange,
  opsFor,
  type ConditionGroup,
  type ConditionItem,
  type ConditionRow,
} from './conditions';

/**
 * The branch condition builder: comparisons and groups joined by all / any, groups nesting as
 * the server's conditions do. A form control (value / onChange) for a Form.Item.
 */
export function ConditionEditor({
  value = { join: 'all', items: [] },
  onChange,
  schema,
}: {
  value?: ConditionGroup;
  onChange?: (v: ConditionGroup) => void;
  schema: FormSchema;
}) {
  return <Group group={value} depth={1} schema={schema} onChange={(g) => onChange?.(g)} />;
}

function Group({
  group,
  depth,
  schema,
  onChange,
  onRemove,
}: {
  group: ConditionGroup;
  depth: number;
  schema: FormSchema;
  onChange: (g: ConditionGroup) => void;
  onRemove?: () => void;
}) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const setItem = (i: number, item: ConditionItem) =>
    onChange({ ...group, items: group.items.map((x, j) => (j === i ? item : x)) });
  const removeItem = (i: number) =>
    onChange({ ...group, items: group.items.filter((_, j) => j !== i) });
  const first = schema.fields[0];
  const newRow: ConditionRow = {
    field: first?.key ?? '',
    op: opAfterFieldChange(first?.type, 'eq'),
    value: '',
  };
  return (
    <div
      role="group"
      aria-label={depth === 1 ? t('designer.condition') : t('designer.subgroup', { depth })}
      data-testid={`condition-group-${depth}`}
      style={
        depth === 1
          ? undefined
          : {
              borderLeft: `3px solid ${token.colorBorder}`,
              paddingLeft: 8,
              margin: '4px 0 8px',
            }
      }
    >
      <Space wrap style={{ marginBottom: 8 }}>
        <Radio.Group
          aria-label={t('designer.join')}
          value={group.join}
          onChange={(e) => onChange({ ...group, join: e.target.value as 'all' | 'any' })}
          options={[
            { value: 'all', label: t('designer.all') },
            { value: 'any', label: t('designer.any') },
          ]}
        />
        {onRemove && (
          <Button size="small" icon={<DeleteOutlined />} onClick={onRemove}>
            {t('designer.removeGroup')}
          </Button>
        )}
      </Space>
      {group.items.map((item, i) =>
        isGroup(item) ? (
          <Group
            key={i}
            group={item}
            depth={depth + 1}
            schema={schema}
            onChange={(g) => setItem(i, g)}
            onRemove={() => removeItem(i)}
          />
        ) : (
          <Row
            key={i}
            row={item}
            schema={schema}
            onChange={(r) => setItem(i, r)}
            onRemove={() => removeItem(i)}
          />
        ),
      )}
      <Space wrap>
        <Button
          type="dashed"
          icon={<PlusOutlined />}
          onClick={() => onChange({ ...group, items: [...group.items, newRow] })}
        >
          {t('designer.addCondition')}
        </Button>
        {depth < MAX_CONDITION_DEPTH && (
          <Button
            type="dashed"
            icon={<PlusOutlined />}
            data-testid={`add-group-${depth}`}
            onClick={() =>
              onChange({
                ...group,
                items: [
                  ...group.items,
                  { join: group.join === 'all' ? 'any' : 'all', items: [newRow] },
                ],
              })
            }
          >
            {t('designer.addGroup')}
          </Button>
        )}
      </Space>
    </div>
  );
}

function Row({
  row,
  schema,
  onChange,
  onRemove,
}: {
  row: ConditionRow;
  schema: FormSchema;
  onChange: (r: ConditionRow) => void;
  onRemove: () => void;
}) {
  const { t } = useTranslation();
  const type = schema.fields.find((f) => f.key === row.field)?.type;
  const ops = opsFor(type);
  const valueless = row.op === 'empty' || row.op === 'not_empty';
  const many = row.op === 'in' || row.op === 'not_in';
  const ids = idsOfText(row.value);
  // Picked ids are kept as the row's text ("3" or "3,5"), as typed values are.
  const setIds = (v: number | number[] | undefined) =>
    onChange({ ...row, value: (Array.isArray(v) ? v : v ? [v] : []).join(',') });
  const pickerProps = {
    'aria-label': t('designer.condValue'),
    style: { width: 200 },
    multiple: many,
    value: many ? ids : ids[0],
    onChange: setIds as (v: never) => void,
  };
  return (
    <Space align="baseline" wrap style={{ marginBottom: 8 }}>
      <Select
        aria-label={t('designer.condField')}
        style={{ width: 150 }}
        value={row.field || undefined}
        onChange={(field: string) => {
          const next = schema.fields.find((f) => f.key === field)?.type;
          // Ids and typed text do not carry over between kinds of field.
          const changesKind = isIdField(next) !== isIdField(type);
          onChange({
            field,
            op: opAfterFieldChange(next, row.op),
            value: changesKind ? '' : row.value,
          });
        }}
        options={[
          ...schema.fields.map((f) => ({ value: f.key, label: `${f.label} (${f.key})` })),
          { value: 'initiator.dept_id', label: t('designer.initiatorDept') },
          { value: 'initiator.role_ids', label: t('designer.initiatorRoles') },
        ]}
      />
      <Select
        aria-label={t('designer.condOp')}
        style={{ width: 110 }}
        value={row.op}
        onChange={(op: ConditionRow['op']) => onChange({ ...row, op })}
        options={ops.map((o) => ({ value: o, label: t(`designer.op.${o}`) }))}
      />
      {!valueless &&
        (type === 'user' ? (
          <PersonPicker {...pickerProps} />
        ) : type === 'dept' ? (
          <DeptSelect {...pickerProps} />
        ) : (
          <Input
            aria-label={t('designer.condValue')}
            style={{ width: 130 }}
            placeholder={t('designer.condValueHint')}
            value={row.value ?? ''}
            onChange={(e) => onChange({ ...row, value: e.target.value })}
          />
        ))}
      <Button
        type="text"
        size="small"
        icon={<DeleteOutlined />}
        aria-label={t('designer.removeCondition')}
        onClick={onRemove}
      />
    </Space>
  );
}
