/** The alerts list's filters in the URL, and the API query they make. */
import type { AlertQuery } from '../../../api/monitor';
import { idFilter } from '../../admin/shared/listQuery';

export const ALERT_FILTERS = ['status', 'kind', 'rule_id'] as const;
export const STATUSES = ['firing', 'resolved'] as const;
export const KINDS = ['rule', 'certificate_expiry'] as const;

/** The API's query from the URL's filters (anything else in them is left out). */
export function alertQuery(filters: Partial<Record<(typeof ALERT_FILTERS)[number], string>>) {
  const query: Omit<AlertQuery, 'page' | 'page_size'> = {};
  const status = STATUSES.find((s) => s === filters.status);
  const kind = KINDS.find((k) => k === filters.kind);
  const ruleId = idFilter(filters.rule_id);
  if (status) query.status = status;
  if (kind) query.kind = kind;
  if (ruleId !== undefined) query.rule_id = ruleId;
  return query;
}
