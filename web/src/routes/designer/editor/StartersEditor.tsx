import { Form, Switch, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Definition } from '../../../api/bpm';
import { DeptSelect } from '../../../form/DeptSelect';
import { PersonPicker } from '../../../form/PersonPicker';
import { RolePicker } from './RolePicker';

export type Starters = NonNullable<Definition['starters']>;

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
            <PersonPicker
              multiple
              id="starters-users"
              disabled={disabled}
              aria-label={t('designer.startersUsers')}
              value={value.user_ids ?? []}
              onChange={(v: number[]) => onChange({ ...value, user_ids: v })}
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
            <DeptSelect
              multiple
              id="starters-depts"
              aria-label={t('designer.startersDepts')}
              placeholder={t('designer.pickDepts')}
              disabled={disabled}
              value={value.dept_ids ?? []}
              onChange={(v: number[]) => onChange({ ...value, dept_ids: v })}
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
