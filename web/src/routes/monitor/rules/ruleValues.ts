/**
 * An alert rule between the API and its form: the form shows the error rate's threshold as a
 * percentage (the API holds the share, 0–1), and a platform-wide metric carries no service.
 */
import {
  isServiceMetric,
  type AlertRule,
  type AlertRuleInput,
  type MetricName,
} from '../../../api/monitor';
import { shown, thresholdOf } from '../shared/format';

export interface RuleValues {
  name: string;
  metric: MetricName;
  service?: string | null;
  operator: 'gt' | 'lt';
  threshold: number;
  duration_seconds: number;
  recipient_user_ids: number[];
  enabled: boolean;
}

/** What the form starts from: the rule, or a new one's defaults. */
export function ruleValues(rule: AlertRule | null): Partial<RuleValues> {
  if (!rule) {
    return { operator: 'gt', duration_seconds: 300, recipient_user_ids: [], enabled: true };
  }
  return {
    name: rule.name,
    metric: rule.metric as MetricName,
    service: rule.service,
    operator: rule.operator,
    threshold: Number(shown(rule.metric, rule.threshold).toFixed(6)),
    duration_seconds: rule.duration_seconds,
    recipient_user_ids: rule.recipient_user_ids,
    enabled: rule.enabled,
  };
}

/** The body the API takes from the form's values. */
export function ruleInput(values: RuleValues): AlertRuleInput {
  const perService = isServiceMetric(values.metric);
  return {
    name: values.name.trim(),
    metric: values.metric,
    service: perService ? (values.service ?? null) : null,
    operator: values.operator,
    threshold: thresholdOf(values.metric, values.threshold),
    duration_seconds: values.duration_seconds,
    recipient_user_ids: values.recipient_user_ids ?? [],
    enabled: values.enabled,
  };
}
