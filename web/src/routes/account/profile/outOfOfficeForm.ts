import type { Dayjs } from 'dayjs';
import type { OutOfOffice, OutOfOfficeInput } from '../../../api/outOfOffice';

/** The absence form's values: the period is one range field. */
export interface AbsenceValues {
  stand_in_id: number;
  period: [Dayjs, Dayjs];
  definition_keys?: string[];
  move_pending?: boolean;
  comment?: string;
}

/**
 * The body of `PUT /bpm/out-of-office` (the whole record): times in ISO 8601, and what was
 * left empty left out (no flows picked means every flow; no comment, none).
 */
export function toInput(v: AbsenceValues): OutOfOfficeInput {
  const comment = v.comment?.trim();
  return {
    stand_in_id: v.stand_in_id,
    from: v.period[0].toISOString(),
    to: v.period[1].toISOString(),
    ...(v.definition_keys?.length ? { definition_keys: v.definition_keys } : {}),
    move_pending: v.move_pending ?? false,
    ...(comment ? { comment } : {}),
  };
}

/** Whether the absence holds now, is yet to begin, or is over. */
export function absenceState(a: OutOfOffice, now: number): 'active' | 'scheduled' | 'ended' {
  if (a.active) return 'active';
  return Date.parse(a.to) <= now ? 'ended' : 'scheduled';
}
