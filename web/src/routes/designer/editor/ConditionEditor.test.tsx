import '../../../test/fakeServer';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { FormSchema } from '../../../api/bpm';
import i18n from '../../../i18n';
import { ConditionEditor } from './ConditionEditor';
import type { ConditionGroup } from './conditions';

const schema: FormSchema = {
  fields: [
    { key: 'att', label: 'Attachments', type: 'file' },
    { key: 'days', label: 'Days', type: 'number' },
  ],
};

afterEach(cleanup);

describe('condition editor on a file field', () => {
  it('starts a comparison on a file field as "is empty", offers only emptiness and asks no value', async () => {
    await i18n.changeLanguage('en');
    const seen: ConditionGroup[] = [];
    const client = new QueryClient();
    const mount = (value: ConditionGroup) =>
      render(
        <QueryClientProvider client={client}>
          <ConditionEditor value={value} onChange={(g) => seen.push(g)} schema={schema} />
        </QueryClientProvider>,
      );
    const { unmount } = mount({ join: 'all', items: [] });
    fireEvent.click(screen.getByRole('button', { name: /Add a comparison/ }));
    expect(seen.at(-1)?.items).toEqual([{ field: 'att', op: 'empty', value: '' }]);
    unmount();

    mount(seen.at(-1)!);
    expect(screen.queryByLabelText('Value')).toBeNull();
    await act(async () => {
      fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Operator' }));
    });
    const options = [...document.querySelectorAll('.ant-select-item-option')].map(
      (o) => o.getAttribute('title') ?? o.textContent,
    );
    expect(options).toEqual([i18n.t('designer.op.empty'), i18n.t('designer.op.not_empty')]);
  });
});
