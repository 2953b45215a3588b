import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import type { OutOfOffice } from '../../../api/outOfOffice';
import { absenceState, toInput } from './outOfOfficeForm';

const period: [dayjs.Dayjs, dayjs.Dayjs] = [
  dayjs('2025-08-04T09:00:00Z'),
  dayjs('2025-08-14T18:00:00Z'),
];

describe('out-of-office form', () => {
  it('sends the period in ISO 8601 and leaves out what was left empty', () => {
    expect(toInput({ stand_in_id: 3, period, definition_keys: [], comment: '  ' })).toEqual({
      stand_in_id: 3,
      from: '2025-08-04T09:00:00.000Z',
      to: '2025-08-14T18:00:00.000Z',
      move_pending: false,
    });
    expect(
      toInput({
        stand_in_id: 3,
        period,
        definition_keys: ['leave'],
        move_pending: true,
        comment: ' Holiday ',
      }),
    ).toMatchObject({ definition_keys: ['leave'], move_pending: true, comment: 'Holiday' });
  });

  it('tells an absence that holds now from one to come and one that is over', () => {
    const a: OutOfOffice = {
      user_id: 2,
      stand_in_id: 3,
      from: '2025-08-04T09:00:00Z',
      to: '2025-08-14T18:00:00Z',
      definition_keys: null,
      move_pending: false,
      comment: null,
      active: false,
      updated_by: 2,
      updated_at: '2025-08-01T00:00:00Z',
    };
    expect(absenceState({ ...a, active: true }, Date.parse('2025-08-05T00:00:00Z'))).toBe('active');
    expect(absenceState(a, Date.parse('2025-08-01T00:00:00Z'))).toBe('scheduled');
    expect(absenceState(a, Date.parse('2025-08-15T00:00:00Z'))).toBe('ended');
  });
});
