import { describe, expect, it } from 'vitest';
import { testFiles } from './directory.test-support.js';
import { accepts, fileFieldProblems } from './file-fields.js';
import { validateForm, validateFormSchema } from './form.js';
import type { FormSchema } from './types.js';

const schema: FormSchema = {
  fields: [
    {
      key: 'docs',
      label: 'Docs',
      type: 'file',
      maxCount: 2,
      accept: ['application/pdf', 'image/*'],
    },
    { key: 'any', label: 'Any', type: 'file' },
  ],
};

describe('file values', () => {
  it('are lists of distinct positive ids, at most maxCount (default 1); [] is no value', () => {
    expect(validateForm(schema, { docs: [3, 1], any: [] })).toEqual({
      ok: true,
      form: { docs: [3, 1] },
    });
    const rules = (input: unknown) => {
      const checked = validateForm(schema, input);
      return checked.ok ? [] : checked.problems.map((p) => `${p.field}:${p.rule}`);
    };
    expect(rules({ docs: [1, 2, 3] })).toEqual(['docs:range']);
    expect(rules({ any: [1, 2] })).toEqual(['any:range']);
    expect(rules({ docs: [1, 1] })).toEqual(['docs:format']);
    expect(rules({ docs: 1 })).toEqual(['docs:type']);
    expect(rules({ docs: [0] })).toEqual(['docs:type']);
    expect(rules({ docs: [1.5] })).toEqual(['docs:type']);
    expect(rules({ docs: ['1'] })).toEqual(['docs:type']);
  });

  it('take maxCount and accept on file fields only, well formed', () => {
    const attrs = (field: Record<string, unknown>) =>
      validateFormSchema({ fields: [{ key: 'f', label: 'F', ...field }] }).map(
        (p) => `${p.field.replace('form_schema.fields[0].', '')}:${p.rule}`,
      );
    expect(attrs({ type: 'file', maxCount: 20, accept: ['image/*', 'text/csv'] })).toEqual([]);
    expect(attrs({ type: 'file', maxCount: 0 })).toEqual(['maxCount:type']);
    expect(attrs({ type: 'file', maxCount: 21 })).toEqual(['maxCount:range']);
    expect(attrs({ type: 'file', accept: [] })).toEqual(['accept:type']);
    expect(attrs({ type: 'file', accept: ['PDF'] })).toEqual(['accept:format']);
    expect(attrs({ type: 'file', accept: ['*/*'] })).toEqual(['accept:format']);
    expect(attrs({ type: 'input', maxCount: 1 })).toEqual(['maxCount:format']);
    expect(attrs({ type: 'number', accept: ['image/png'] })).toEqual(['accept:format']);
  });
});

describe('accepts', () => {
  it('matches a type exactly or a whole type by type/*, ignoring case', () => {
    expect(accepts(undefined, 'anything/at-all')).toBe(true);
    expect(accepts(['image/*'], 'image/png')).toBe(true);
    expect(accepts(['image/*'], 'IMAGE/JPEG')).toBe(true);
    expect(accepts(['image/*'], 'imagex/png')).toBe(false);
    expect(accepts(['application/pdf'], 'application/pdf+zip')).toBe(false);
  });
});

describe('fileFieldProblems', () => {
  const files = testFiles([
    { id: 1, contentType: 'application/pdf', uploadedBy: 7 },
    { id: 2, contentType: 'text/plain', uploadedBy: 7 },
    { id: 3, contentType: 'image/png', uploadedBy: 8 },
  ]);
  const problems = (form: Record<string, number[]>, before?: Record<string, number[]>) =>
    fileFieldProblems(files, schema, form, { actorId: 7, ...(before ? { before } : {}) }).then(
      (list) => list.map((p) => `${p.field}: ${p.message}`),
    );

  it("accepts the actor's own uploads of an accepted type", async () => {
    expect(await problems({ docs: [1], any: [2] })).toEqual([]);
  });

  it("refuses someone else's file, an unknown one and a type not accepted, one problem a field", async () => {
    expect(await problems({ docs: [3], any: [99] })).toEqual([
      'docs: Docs: file 3 is not one you uploaded',
      'any: Any: file 99 is not one you uploaded',
    ]);
    expect(await problems({ docs: [2, 3] })).toEqual([
      'docs: Docs: file 2 is text/plain, not one of application/pdf, image/*',
    ]);
  });

  it('lets files already in the form stay, whoever uploaded them', async () => {
    expect(await problems({ docs: [3, 1] }, { docs: [3] })).toEqual([]);
  });
});
