import { useQuery } from '@tanstack/react-query';
import { Form, Select, Switch, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { api, data } from '../api/client';
import type { Definition, Page } from '../api/bpm';
import { useAuth } from '../auth/AuthContext';
import { UserPicker } from '../form/UserPicker';
import { RolePicker } from './RolePicker';

export type Starters = NonNullable<Definition['starters']>;

/** Department ids from the department list when the caller may read it, else typed. */
function DeptPicker(props: {
  value?: number[];
  onChange?: (v: number[]) => void;
  id?: string;
  disabled?: boolean;
  'aria-label'?: string;
}) {
  const { t } = useTranslation();
  const { can } = useAuth();
  const depts = useQuery({
    queryKey: ['departments', 'picker'],
    queryFn: () =>
      data(api.GET('/api/v1/departments', { params: { query: { page_size: 100 } } })) as Promise<
        Page<{ id: number; name: string }>
      >,
    enabled: can('system:dept:list'),
  });
  return (
    <Select<number[]>
      {...props}
      mode={depts.data ? 'multiple' : 'tags'}
      placeholder={depts.data ? t('designer.pickDepts') : t('picker.typeIds')}
      options={(depts.data?.list ?? []).map((d) => ({ value: d.id, label: d.name }))}
      onChange={(v) => props.onChange?.(v.map(Number).filter((n) => Number.isInteger(n) && n > 0))}
    />
  );
}

/**
 * Who may start the flow (`starters`): everyone in the tenant, or the people, roles and
 * departments named (a user named by any of the three lists may start it).
 */
export function StartersEditor({
  value,
  onChange,
  disabled,
}: {
  value: Starters;
  onChange: (v: Starters) => void;
  disabled: boolean;
}) {
  const { t } = useTranslation();
  const restricted = [value.user_ids, value.role_ids, value.dept_ids].some((l) => l?.length);
  // Switching to "named people" with empty lists keeps the switch on until something is named.
  const everyone = !restricted && value.user_ids === undefined;
  return (
    <>
      <Form.Item
        label={t('designer.starters')}
        htmlFor="starters-everyone"
        extra={t('designer.startersHint')}
      >
        <Switch
          id="starters-everyone"
          checked={everyone}
          disabled={disabled}
          checkedChildren={t('designer.startersEveryone')}
          unCheckedChildren={t('designer.startersNamed')}
          data-testid="starters-everyone"
          onChange={(on) => onChange(on ? {} : { user_ids: [], role_ids: [], dept_ids: [] })}
        />
      </Form.Item>
      {!everyone && (
        <>
          <Form.Item label={t('designer.startersUsers')} htmlFor="starters-users">
            <UserPicker
              multiple
              id="starters-users"
              disabled={disabled}
              aria-label={t('designer.startersUsers')}
              value={value.user_ids ?? []}
              onChange={(v) => onChange({ ...value, user_ids: v as number[] })}
            />
          </Form.Item>
          <Form.Item label={t('designer.startersRoles')} htmlFor="starters-roles">
            <RolePicker
              id="starters-roles"
              aria-label={t('designer.startersRoles')}
              disabled={disabled}
              value={value.role_ids ?? []}
              onChange={(v) => onChange({ ...value, role_ids: v })}
            />
          </Form.Item>
          <Form.Item label={t('designer.startersDepts')} htmlFor="starters-depts">
            <DeptPicker
              id="starters-depts"
              aria-label={t('designer.startersDepts')}
              disabled={disabled}
              value={value.dept_ids ?? []}
              onChange={(v) => onChange({ ...value, dept_ids: v })}
            />
          </Form.Item>
          {!restricted && (
            <Typography.Text type="warning">{t('designer.startersNone')}</Typography.Text>
          )}
        </>
      )}
    </>
  );
}
