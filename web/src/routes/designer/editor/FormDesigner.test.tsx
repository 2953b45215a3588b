import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import '../../../i18n';
import i18n from '../../../i18n';
import type { FormSchema } from '../../../api/bpm';
import { FormDesigner, cleanAccept, patchField } from './FormDesigner';

afterEach(cleanup);

describe('form designer: file fields', () => {
  it('sends maxCount and accept only on a file field, and never an empty accept list', () => {
    const file = patchField(
      { key: 'att', label: 'Att', type: 'input' },
      { type: 'file', maxCount: 3, accept: ['application/pdf'] },
    );
    expect(file).toEqual({
      key: 'att',
      label: 'Att',
      type: 'file',
      maxCount: 3,
      accept: ['application/pdf'],
    });
    expect(patchField(file, { type: 'input' })).toEqual({
      key: 'att',
      label: 'Att',
      type: 'input',
    });
    expect(patchField(file, { accept: [] })).not.toHaveProperty('accept');
    expect(patchField(file, { maxCount: undefined })).not.toHaveProperty('maxCount');
    expect(patchField({ key: 'n', label: 'N', type: 'number', min: 1 }, { type: 'file' })).toEqual({
      key: 'n',
      label: 'N',
      type: 'file',
    });
  });

  it('takes typed accepted types in lower case and sets apart what is not a content type', () => {
    expect(cleanAccept(['Application/PDF', 'image/*', 'pdf', ' text/plain ', 'image/*'])).toEqual({
      accept: ['application/pdf', 'image/*', 'text/plain'],
      invalid: ['pdf'],
    });
  });

  it('offers the File type and its settings in both languages', async () => {
    for (const [lang, type, most] of [
      ['en', 'File', 'At most'],
      ['zh-CN', '附件', '最多'],
    ] as const) {
      await i18n.changeLanguage(lang);
      const changes: FormSchema[] = [];
      render(
        <FormDesigner
          schema={{
            fields: [{ key: 'att', label: 'Att', type: 'file', maxCount: 2, accept: ['image/*'] }],
          }}
          onChange={(s) => changes.push(s)}
          problems={{}}
        />,
      );
      expect(screen.getByText(type)).toBeTruthy();
      const count = screen.getByLabelText(most);
      expect((count as HTMLInputElement).value).toBe('2');
      fireEvent.change(count, { target: { value: '5' } });
      fireEvent.blur(count);
      expect(changes.at(-1)?.fields[0]).toMatchObject({ type: 'file', maxCount: 5 });
      cleanup();
    }
    await i18n.changeLanguage('en');
  });
});
