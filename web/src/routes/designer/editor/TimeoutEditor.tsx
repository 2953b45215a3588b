import { Form, InputNumber, Select, Space, Switch, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { FINAL_ACTIONS, MAX_REMINDERS, MAX_TIMEOUT_HOURS, TIMEOUT_ACTIONS } from './timeout';

const hoursInput = { min: 0.1, max: MAX_TIMEOUT_HOURS, step: 1, suffix: 'h' };

/**
 * The approval drawer's deadline (`timeout`): after how many hours, then remind (again every N
 * hours, so many times), escalate (to the holder's department leader, one level up every N
 * hours, and what happens at the top), or approve / reject automatically. Form items of the
 * drawer's form: `timeoutOn` and `timeout.*`.
 */
export function TimeoutEditor() {
  const { t } = useTranslation();
  return (
    <>
      <Form.Item name="timeoutOn" label={t('designer.timeout')} valuePropName="checked">
        <Switch data-testid="timeout-on" />
      </Form.Item>
      <Form.Item
        noStyle
        dependencies={['timeoutOn', ['timeout', 'action'], ['timeout', 'repeatCount']]}
      >
        {({ getFieldValue }) => {
          if (!getFieldValue('timeoutOn')) return null;
          const action = (getFieldValue(['timeout', 'action']) as string | undefined) ?? 'remind';
          const count = (getFieldValue(['timeout', 'repeatCount']) as number | undefined) ?? 1;
          return (
            <div data-testid="timeout-editor">
              <Space wrap align="start">
                <Form.Item
                  name={['timeout', 'hours']}
                  label={t('designer.hours')}
                  rules={[{ required: true, message: t('designer.deadline.hoursRequired') }]}
                  initialValue={24}
                >
                  <InputNumber {...hoursInput} data-testid="timeout-hours" />
                </Form.Item>
                <Form.Item
                  name={['timeout', 'action']}
                  label={t('designer.timeoutAction')}
                  initialValue="remind"
                >
                  <Select
                    style={{ width: 250 }}
                    data-testid="timeout-action"
                    options={TIMEOUT_ACTIONS.map((a) => ({
                      value: a,
                      label: t(`designer.timeoutDo.${a}`),
                    }))}
                  />
                </Form.Item>
                {action === 'remind' && (
                  <Form.Item
                    name={['timeout', 'repeatCount']}
                    label={t('designer.repeatCount')}
                    initialValue={1}
                  >
                    <InputNumber min={1} max={MAX_REMINDERS} precision={0} />
                  </Form.Item>
                )}
                {((action === 'remind' && count > 1) || action === 'escalate') && (
                  <Form.Item
                    name={['timeout', 'repeatEveryHours']}
                    label={t('designer.repeatEvery')}
                    rules={
                      action === 'remind'
                        ? [{ required: true, message: t('designer.deadline.everyRequired') }]
                        : []
                    }
                  >
                    <InputNumber
                      {...hoursInput}
                      placeholder={t('designer.sameAsHours')}
                      style={{ width: 160 }}
                    />
                  </Form.Item>
                )}
                {action === 'escalate' && (
                  <Form.Item
                    name={['timeout', 'finalAction']}
                    label={t('designer.finalAction')}
                    initialValue="stay"
                  >
                    <Select
                      style={{ width: 220 }}
                      data-testid="timeout-final"
                      options={FINAL_ACTIONS.map((a) => ({
                        value: a,
                        label: t(`designer.finalDo.${a}`),
                      }))}
                    />
                  </Form.Item>
                )}
              </Space>
              <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>
                {t(`designer.timeoutHint.${action}`)}
              </Typography.Paragraph>
            </div>
          );
        }}
      </Form.Item>
    </>
  );
}
