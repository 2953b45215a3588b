import { Form, InputNumber, Radio, Select, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { FormSchema } from '../../../api/bpm';
import { PersonPicker } from '../../../form/PersonPicker';
import { RolePicker } from './RolePicker';

type Rule = 'users' | 'roles' | 'dept_leader' | 'form_user' | 'initiator_selected';

/**
 * Who a step goes to (`assignee`), as form items of the node drawer: named people, holders of
 * roles, a department's leader (of the initiator's department or of a department field), the
 * person a `user` field of the form names, or (approval steps) whom the initiator chooses.
 */
export function AssigneeEditor({
  nodeType,
  schema,
}: {
  nodeType: 'approval' | 'cc';
  schema: FormSchema;
}) {
  const { t } = useTranslation();
  const rules: Rule[] = [
    'users',
    'roles',
    'dept_leader',
    'form_user',
    ...(nodeType === 'approval' ? (['initiator_selected'] as const) : []),
  ];
  const typeLabel = (type: string) => t(`designer.type.${type}`);
  const personFields = schema.fields.filter((f) => f.type === 'user');
  // A department field names the department; a number field is still read for old flows.
  const deptFields = [
    ...schema.fields.filter((f) => f.type === 'dept'),
    ...schema.fields.filter((f) => f.type === 'number'),
  ];
  return (
    <>
      <Form.Item
        name={['assignee', 'type']}
        label={t('designer.assignee')}
        rules={[{ required: true }]}
      >
        <Select
          data-testid="assignee-type"
          options={rules.map((r) => ({ value: r, label: t(`designer.rule.${r}`) }))}
        />
      </Form.Item>
      <Form.Item
        noStyle
        dependencies={[
          ['assignee', 'type'],
          ['assignee', 'source'],
        ]}
      >
        {({ getFieldValue }) => {
          const type = getFieldValue(['assignee', 'type']) as Rule;
          if (type === 'users')
            return (
              <Form.Item
                name={['assignee', 'userIds']}
                label={t('designer.users')}
                rules={[{ required: true }]}
              >
                <PersonPicker multiple aria-label={t('designer.users')} />
              </Form.Item>
            );
          if (type === 'roles')
            return (
              <Form.Item
                name={['assignee', 'roleIds']}
                label={t('designer.roles')}
                rules={[{ required: true }]}
              >
                <RolePicker />
              </Form.Item>
            );
          if (type === 'form_user')
            return (
              <Form.Item
                name={['assignee', 'field']}
                label={t('designer.personField')}
                rules={[{ required: true, message: t('designer.personFieldRequired') }]}
                extra={
                  personFields.length === 0 && (
                    <Typography.Text type="warning">{t('designer.noPersonField')}</Typography.Text>
                  )
                }
              >
                <Select
                  data-testid="assignee-field"
                  options={personFields.map((f) => ({ value: f.key, label: f.label }))}
                />
              </Form.Item>
            );
          if (type !== 'dept_leader') return null;
          return (
            <>
              <Form.Item
                name={['assignee', 'source']}
                label={t('designer.deptOf')}
                initialValue="initiator"
              >
                <Radio.Group
                  options={[
                    { value: 'initiator', label: t('designer.ofInitiator') },
                    { value: 'form_field', label: t('designer.ofField') },
                  ]}
                />
              </Form.Item>
              {getFieldValue(['assignee', 'source']) === 'form_field' && (
                <Form.Item
                  name={['assignee', 'field']}
                  label={t('designer.deptField')}
                  rules={[{ required: true }]}
                  extra={
                    deptFields.length === 0 && (
                      <Typography.Text type="warning">{t('designer.noDeptField')}</Typography.Text>
                    )
                  }
                >
                  <Select
                    data-testid="dept-field"
                    options={deptFields.map((f) => ({
                      value: f.key,
                      label: `${f.label} (${typeLabel(f.type)})`,
                    }))}
                  />
                </Form.Item>
              )}
              <Form.Item name={['assignee', 'level']} label={t('designer.level')}>
                <InputNumber min={1} max={10} />
              </Form.Item>
              <Form.Item
                name={['assignee', 'initiatorIsLeader']}
                label={t('designer.initiatorIsLeader')}
                initialValue="next_level"
              >
                <Select
                  aria-label={t('designer.initiatorIsLeader')}
                  options={(['next_level', 'skip', 'allow'] as const).map((v) => ({
                    value: v,
                    label: t(`designer.leaderRule.${v}`),
                  }))}
                />
              </Form.Item>
            </>
          );
        }}
      </Form.Item>
    </>
  );
}
