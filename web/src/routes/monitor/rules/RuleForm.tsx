import { Form, Input, InputNumber, Select, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  METRICS,
  isServiceMetric,
  monitorCalls,
  useMonitorMutation,
  useServiceHealth,
  type AlertRule,
} from '../../../api/monitor';
import { PersonPicker } from '../../../form/PersonPicker';
import { FormModal, topField } from '../../admin/shared/FormModal';
import { unitOf } from '../shared/format';
import { useWords } from '../shared/words';
import { ruleInput, ruleValues, type RuleValues } from './ruleValues';

/** The longest a threshold may have to hold: 7 days. */
const MAX_DURATION = 604_800;

/**
 * Creates or edits an alert rule: its name, the metric (and the service of a per-service one),
 * the condition, how long it must hold, who is told, and whether it is on.
 */
export function RuleForm({ rule, onClose }: { rule: AlertRule | null; onClose: () => void }) {
  const { t } = useTranslation('monitor');
  const w = useWords();
  const [form] = Form.useForm<RuleValues>();
  const create = useMonitorMutation(monitorCalls.createRule, ['rules', 'alerts']);
  const update = useMonitorMutation(monitorCalls.updateRule, ['rules', 'alerts']);
  const services = useServiceHealth();
  const metric = Form.useWatch('metric', form) as string | undefined;
  const duration = Form.useWatch('duration_seconds', form) as number | null | undefined;
  const perService = metric !== undefined && isServiceMetric(metric);
  const required = (label: string) => ({ required: true, message: t('rules.required', { label }) });

  const save = async (values: RuleValues) => {
    const body = ruleInput(values);
    if (rule) await update.mutateAsync({ id: rule.id, body });
    else await create.mutateAsync(body);
  };

  return (
    <FormModal<RuleValues>
      title={rule ? t('rules.editTitle', { name: rule.name }) : t('rules.create')}
      form={form}
      initialValues={ruleValues(rule)}
      save={save}
      saving={create.isPending || update.isPending}
      onClose={onClose}
      fieldOf={topField}
    >
      <Form.Item name="name" label={t('rules.name')} rules={[required(t('rules.name'))]}>
        <Input autoComplete="off" maxLength={100} />
      </Form.Item>
      <Form.Item name="metric" label={t('rules.metric')} rules={[required(t('rules.metric'))]}>
        <Select
          aria-label={t('rules.metric')}
          showSearch={{ optionFilterProp: 'label' }}
          options={METRICS.map((m) => ({ value: m, label: w.metric(m) }))}
          onChange={(m: string) => {
            if (!isServiceMetric(m)) form.setFieldValue('service', null);
          }}
        />
      </Form.Item>
      <Form.Item
        name="service"
        label={t('rules.service')}
        extra={perService ? undefined : t('rules.serviceNotNeeded')}
        rules={perService ? [required(t('rules.service'))] : []}
      >
        <Select
          aria-label={t('rules.service')}
          disabled={!perService}
          allowClear
          loading={services.isPending}
          placeholder={perService ? t('rules.pickService') : t('rules.platform')}
          options={(services.data ?? []).map((s) => ({ value: s.name, label: s.name }))}
        />
      </Form.Item>
      <Form.Item
        name="operator"
        label={t('rules.operator')}
        rules={[required(t('rules.operator'))]}
      >
        <Select
          aria-label={t('rules.operator')}
          options={[
            { value: 'gt', label: t('rules.gt') },
            { value: 'lt', label: t('rules.lt') },
          ]}
        />
      </Form.Item>
      <Form.Item
        name="threshold"
        label={t('rules.threshold')}
        extra={
          metric ? t('rules.thresholdIn', { unit: t(`unitWords.${unitOf(metric)}`) }) : undefined
        }
        rules={[required(t('rules.threshold'))]}
      >
        <InputNumber style={{ width: '100%' }} min={-1e12} max={1e12} />
      </Form.Item>
      <Form.Item
        name="duration_seconds"
        label={t('rules.duration')}
        extra={
          typeof duration === 'number' && duration > 0
            ? t('rules.durationIs', { span: w.span(duration) })
            : t('rules.durationZero')
        }
        rules={[required(t('rules.duration'))]}
      >
        <InputNumber
          style={{ width: '100%' }}
          min={0}
          max={MAX_DURATION}
          precision={0}
          suffix={t('rules.seconds')}
        />
      </Form.Item>
      <Form.Item
        name="recipient_user_ids"
        label={t('rules.recipients')}
        extra={t('rules.recipientsHelp')}
      >
        <PersonPicker multiple aria-label={t('rules.recipients')} />
      </Form.Item>
      <Form.Item name="enabled" label={t('rules.enabled')} valuePropName="checked">
        <Switch aria-label={t('rules.enabled')} />
      </Form.Item>
    </FormModal>
  );
}
