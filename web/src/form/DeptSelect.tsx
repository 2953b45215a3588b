import { TreeSelect, Typography } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useDepartments } from '../api/people';
import { deptNames, deptTree } from './deptTree';

export interface DeptSelectProps {
  value?: number | number[] | null;
  /** One id (or undefined once cleared); an array of ids with `multiple`. */
  onChange?: (value: never) => void;
  multiple?: boolean;
  id?: string;
  disabled?: boolean;
  'aria-label'?: string;
  placeholder?: string;
  allowClear?: boolean;
  status?: 'error' | 'warning';
  style?: React.CSSProperties;
}

/**
 * Picks departments of the tenant from its tree (`GET /bpm/directory/departments`, open to
 * every signed-in user), searched by name: form fields of type `dept`, conditions on them, and
 * the departments that may start a flow.
 */
export function DeptSelect({ value, onChange, multiple = false, ...rest }: DeptSelectProps) {
  const { t } = useTranslation();
  const departments = useDepartments();
  const tree = useMemo(() => deptTree(departments.data ?? []), [departments.data]);
  const names = useMemo(() => deptNames(departments.data), [departments.data]);
  const chosen = Array.isArray(value) ? value : typeof value === 'number' ? [value] : [];
  // Labelled values, so a chosen department shows its name even before the tree has loaded.
  const labelled = chosen.map((id) => ({
    value: id,
    label: names.get(id) ?? (departments.isPending ? '…' : t('people.dept', { id })),
  }));
  type Labelled = { value: number; label?: unknown };
  return (
    <TreeSelect<Labelled | Labelled[]>
      {...rest}
      multiple={multiple}
      labelInValue
      value={(multiple ? labelled : (labelled[0] ?? null)) as never}
      onChange={(v) => {
        const ids = (Array.isArray(v) ? v : v ? [v] : []).map((x) => Number(x.value));
        onChange?.((multiple ? ids : ids[0]) as never);
      }}
      treeData={tree as never}
      treeDefaultExpandAll
      showSearch={{ treeNodeFilterProp: 'title' }}
      placeholder={rest.placeholder ?? t('picker.pickDept')}
      loading={departments.isPending}
      notFoundContent={
        departments.isError ? (
          <Typography.Text type="danger">{t('picker.deptsFailed')}</Typography.Text>
        ) : (
          t('picker.noDepts')
        )
      }
      style={{ width: '100%', ...rest.style }}
    />
  );
}
