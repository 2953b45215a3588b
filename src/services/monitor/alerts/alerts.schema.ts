import { z } from 'zod';
import { envelopeOf, listOf, pageQuery } from '../../../platform/http/envelope.js';
import { id } from '../../../platform/http/params.js';
import { METRIC_NAMES } from '../metrics/metric-names.js';

/** A week: the samples kept; a longer duration could never be held. */
export const MAX_DURATION_SECONDS = 7 * 24 * 3600;
export const MAX_RECIPIENTS = 50;

export const createRuleBody = z.object({
  name: z.string().trim().min(1).max(64),
  metric: z.enum(METRIC_NAMES as [string, ...string[]]),
  service: z
    .string()
    .max(32)
    .nullable()
    .optional()
    .describe('required for service.* metrics, absent for the platform-wide ones'),
  operator: z.enum(['gt', 'lt']),
  threshold: z.number().min(-1e12).max(1e12),
  duration_seconds: z
    .number()
    .int()
    .min(0)
    .max(MAX_DURATION_SECONDS)
    .describe('how long the threshold must hold: from the first breaching sample to the latest'),
  recipient_user_ids: z
    .array(id)
    .max(MAX_RECIPIENTS)
    .describe('users of the creator\u2019s tenant'),
  enabled: z.boolean().optional(),
});
export type CreateRuleInput = z.infer<typeof createRuleBody>;
export const updateRuleBody = createRuleBody.partial();
export type UpdateRuleInput = z.infer<typeof updateRuleBody>;

export const ruleView = z.object({
  id: z.number().int(),
  name: z.string(),
  metric: z.string(),
  service: z.string().nullable(),
  operator: z.enum(['gt', 'lt']),
  threshold: z.number(),
  duration_seconds: z.number().int(),
  recipient_user_ids: z.array(z.number().int()),
  enabled: z.boolean(),
  created_by: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type RuleView = z.infer<typeof ruleView>;

export const ALERT_STATUSES = ['firing', 'resolved'] as const;
export const ALERT_KINDS = ['rule', 'certificate_expiry'] as const;

export const alertView = z.object({
  id: z.number().int(),
  kind: z.enum(ALERT_KINDS),
  rule_id: z.number().int().nullable(),
  certificate_id: z.number().int().nullable(),
  title: z.string(),
  metric: z.string().nullable(),
  service: z.string().nullable(),
  status: z.enum(ALERT_STATUSES),
  value: z.number().nullable().describe('the latest sample; for a certificate, the days left'),
  fired_at: z.string(),
  resolved_at: z.string().nullable(),
  notified_at: z.string().nullable(),
});
export type AlertView = z.infer<typeof alertView>;

export const alertsQuery = z.object({
  ...pageQuery,
  status: z.enum(ALERT_STATUSES).optional(),
  kind: z.enum(ALERT_KINDS).optional(),
  rule_id: z
    .string()
    .regex(/^[1-9]\d{0,14}$/)
    .optional(),
});

export const ruleEnvelope = envelopeOf(ruleView);
export const ruleListEnvelope = envelopeOf(listOf(ruleView));
export const alertListEnvelope = envelopeOf(listOf(alertView));
