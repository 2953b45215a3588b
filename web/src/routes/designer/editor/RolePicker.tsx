import { Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { useRoleChoices } from '../../../api/bpmLists';
import { useAuth } from '../../../auth/AuthContext';

/** Role ids from the role list when the caller may read it, else typed. */
export function RolePicker(props: {
  value?: number[];
  onChange?: (v: number[]) => void;
  id?: string;
  disabled?: boolean;
  'aria-label'?: string;
}) {
  const { t } = useTranslation();
  const { can } = useAuth();
  const roles = useRoleChoices(can('system:role:list'));
  return (
    <Select<number[]>
      {...props}
      mode={roles.data ? 'multiple' : 'tags'}
      placeholder={t('designer.pickRoles')}
      options={(roles.data?.list ?? []).map((r) => ({
        value: r.id,
        label: `${r.name} (${r.code})`,
      }))}
      onChange={(v) => props.onChange?.(v.map(Number).filter((n) => Number.isInteger(n) && n > 0))}
    />
  );
}
