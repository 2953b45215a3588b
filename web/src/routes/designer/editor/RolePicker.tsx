import { useQuery } from '@tanstack/react-query';
import { Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { api, data } from '../../../api/client';
import type { Page } from '../../../api/bpm';
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
  const roles = useQuery({
    queryKey: ['roles', 'picker'],
    queryFn: () =>
      data(api.GET('/api/v1/roles', { params: { query: { page_size: 100 } } })) as Promise<
        Page<{ id: number; name: string; code: string }>
      >,
    enabled: can('system:role:list'),
  });
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
