import { describe, expect, it } from 'vitest';
import type { AlertRule } from '../../../api/monitor';
import { ruleInput, ruleValues } from './ruleValues';

const RULE: AlertRule = {
  id: 7,
  name: 'Errors on identity',
  metric: 'service.error_rate',
  service: 'identity',
  operator: 'gt',
  threshold: 0.05,
  duration_seconds: 120,
  recipient_user_ids: [3, 4],
  enabled: true,
  created_by: 1,
  created_at: '2026-03-01T00:00:00Z',
  updated_at: '2026-03-01T00:00:00Z',
};

describe('an alert rule between the API and its form', () => {
  it('starts a new rule above its threshold for 5 minutes, enabled, told to nobody', () => {
    expect(ruleValues(null)).toEqual({
      operator: 'gt',
      duration_seconds: 300,
      recipient_user_ids: [],
      enabled: true,
    });
  });

  it('shows the error rate as a percentage and sends back the share', () => {
    const values = ruleValues(RULE);
    expect(values.threshold).toBe(5);
    expect(ruleInput({ ...RULE, ...values } as never)).toEqual({
      name: 'Errors on identity',
      metric: 'service.error_rate',
      service: 'identity',
      operator: 'gt',
      threshold: 0.05,
      duration_seconds: 120,
      recipient_user_ids: [3, 4],
      enabled: true,
    });
  });

  it('sends no service with a platform-wide metric, whatever the form still holds', () => {
    const input = ruleInput({
      name: ' CPU ',
      metric: 'server.cpu_percent',
      service: 'identity',
      operator: 'lt',
      threshold: 80,
      duration_seconds: 0,
      recipient_user_ids: [],
      enabled: false,
    });
    expect(input).toMatchObject({ name: 'CPU', service: null, threshold: 80, enabled: false });
  });
});
