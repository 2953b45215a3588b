import { describe, expect, it } from 'vitest';
import { approval, users } from './directory.test-support.js';
import { applyEdits } from './edits.js';
import type { FormSchema } from './types.js';

const schema: FormSchema = {
  fields: [
    { key: 'reason', label: 'Reason', type: 'input', required: true },
    { key: 'days', label: 'Days', type: 'number', max: 30 },
    { key: 'amount', label: 'Amount', type: 'amount' },
  ],
};
const form = { reason: 'r', days: 2, amount: 150050 };
const node = approval('n', users(1), { editableFields: ['days', 'amount'] });

describe('applyEdits', () => {
  it('leaves stored values alone when nothing is sent', () => {
    expect(applyEdits(schema, node, form, {})).toEqual({ form, changes: [] });
  });

  it('refuses fields outside editableFields with 40301, naming each', () => {
    expect(() => applyEdits(schema, node, form, { reason: 'x', days: 3, other: 1 })).toThrow(
      expect.objectContaining({
        code: 40301,
        details: {
          fields: [
            expect.objectContaining({ field: 'form.reason' }),
            expect.objectContaining({ field: 'form.other' }),
          ],
        },
      }),
    );
  });

  it('refuses every edit on a node without editableFields', () => {
    expect(() => applyEdits(schema, approval('n', users(1)), form, { days: 3 })).toThrow(
      expect.objectContaining({ code: 40301 }),
    );
  });

  it('validates only what was sent (40002), amounts entered in yuan', () => {
    expect(() => applyEdits(schema, node, form, { days: 31 })).toThrow(
      expect.objectContaining({ code: 40002 }),
    );
    expect(applyEdits(schema, node, form, { amount: '12.5' })).toEqual({
      form: { ...form, amount: 1250 },
      changes: [{ field: 'amount', before: 150050, after: 1250 }],
    });
  });

  it('reports only the fields whose value changed; clearing a field removes it', () => {
    expect(applyEdits(schema, node, form, { days: 2, amount: null })).toEqual({
      form: { reason: 'r', days: 2 },
      changes: [{ field: 'amount', before: 150050, after: null }],
    });
  });
});
