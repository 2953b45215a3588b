import { Descriptions } from 'antd';
import { useTranslation } from 'react-i18next';
import type { FormSchema } from '../api/bpm';
import { useDepartments, usePeople } from '../api/people';
import { deptNames } from '../form/deptTree';
import { formatCents } from '../form/rules';
import { personLabel } from '../form/personLabel';

/**
 * A request's form as read-only values: amounts in yuan, switches as yes / no, and the ids of
 * `user` and `dept` fields as the names of those people and departments.
 */
export function FormValues({
  form,
  schema,
}: {
  form: Record<string, unknown>;
  schema: FormSchema | null;
}) {
  const { t } = useTranslation();
  const fields = schema?.fields.filter((f) => f.key in form) ?? [];
  const known = new Set(fields.map((f) => f.key));
  const extra = Object.keys(form).filter((k) => !known.has(k));
  const people = usePeople(fields.filter((f) => f.type === 'user').map((f) => form[f.key]));
  const hasDept = fields.some((f) => f.type === 'dept');
  const departments = useDepartments(hasDept);
  const depts = deptNames(departments.data);
  const show = (type: string | undefined, v: unknown) => {
    if (v === null || v === undefined) return '-';
    if (type === 'amount' && typeof v === 'number') return `¥ ${formatCents(v)}`;
    if (typeof v === 'boolean') return v ? t('common.yes') : t('common.no');
    if (type === 'user' && typeof v === 'number') return personLabel(t, people, v);
    if (type === 'dept' && typeof v === 'number')
      return depts.get(v) ?? (departments.isPending ? '…' : t('people.dept', { id: v }));
    return String(v);
  };
  return (
    <Descriptions column={{ xs: 1, md: 2 }} size="small" bordered data-testid="instance-form">
      {fields.map((f) => (
        <Descriptions.Item key={f.key} label={f.label}>
          {show(f.type, form[f.key])}
        </Descriptions.Item>
      ))}
      {extra.map((k) => (
        <Descriptions.Item key={k} label={k}>
          {show(undefined, form[k])}
        </Descriptions.Item>
      ))}
    </Descriptions>
  );
}
