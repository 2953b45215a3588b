import { describe, expect, it } from 'vitest';
import { fieldPath, sameSpec, specOf, START_VALUES } from './spec';

describe('the code generator form', () => {
  it('tidies the values into the request the generator takes', () => {
    expect(
      specOf({
        service: ' crm ',
        entity: 'customer',
        plural: ' ',
        columns: [
          { name: ' email ', type: 'string', required: true, searchable: true, max_length: 120 },
          { name: 'score', type: 'number', searchable: true, max_length: 50, description: ' ' },
          { name: 'since', type: 'date', searchable: true, description: ' First order ' },
        ],
      }),
    ).toEqual({
      service: 'crm',
      entity: 'customer',
      columns: [
        { name: 'email', type: 'string', required: true, searchable: true, max_length: 120 },
        { name: 'score', type: 'number', required: false, searchable: false },
        {
          name: 'since',
          type: 'date',
          required: false,
          searchable: true,
          description: 'First order',
        },
      ],
    });
  });

  it('keeps a plural that was given, and starts with one named column', () => {
    expect(specOf({ service: 'shop', entity: 'box', plural: 'boxes' }).plural).toBe('boxes');
    expect(specOf(START_VALUES).columns).toEqual([
      { name: 'name', type: 'string', required: true, searchable: true },
    ]);
  });

  it("maps the server's field names to the form's name paths", () => {
    expect(fieldPath('columns.2.name')).toEqual(['columns', 2, 'name']);
    expect(fieldPath('service')).toEqual(['service']);
    expect(fieldPath('columns')).toEqual(['columns']);
  });

  it('tells whether a preview is of the description as it is now', () => {
    const a = specOf({ service: 's', entity: 'e', columns: [{ name: 'a' }] });
    const b = specOf({ service: 's', entity: 'e', columns: [{ name: 'b' }] });
    expect(sameSpec(a, specOf({ service: 's', entity: 'e', columns: [{ name: 'a' }] }))).toBe(true);
    expect(sameSpec(a, b)).toBe(false);
    expect(sameSpec(null, a)).toBe(false);
  });
});
