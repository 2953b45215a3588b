import { describe, expect, it } from 'vitest';
import { DICT_CODE, duplicateRows, itemFieldPath, itemsBody, rowsOf } from './dictItems';

describe("a dictionary's items", () => {
  it('are sent in the order shown, trimmed, with an empty English label as none', () => {
    expect(
      itemsBody([
        { value: ' b ', label: 'Bee', label_en: '  ', enabled: true },
        { value: 'a', label: ' Ay', label_en: 'A', enabled: false },
      ]),
    ).toEqual([
      { value: 'b', label: 'Bee', label_en: null, sort: 10, enabled: true },
      { value: 'a', label: 'Ay', label_en: 'A', sort: 20, enabled: false },
    ]);
  });

  it('come back as rows without their sort', () => {
    expect(rowsOf([{ value: 'x', label: 'X', label_en: null, sort: 7, enabled: true }])).toEqual([
      { value: 'x', label: 'X', label_en: null, enabled: true },
    ]);
  });

  it('name the rows repeating a value', () => {
    expect(duplicateRows([{ value: 'a' }, { value: 'b' }, { value: ' a' }, { value: '' }])).toEqual(
      [2],
    );
  });

  it("put the server's field names on the row's field", () => {
    expect(itemFieldPath('items.3.value')).toEqual(['items', 3, 'value']);
    expect(itemFieldPath('code')).toEqual(['code']);
  });

  it('take the codes the API takes', () => {
    expect(DICT_CODE.test('order.status')).toBe(true);
    expect(DICT_CODE.test('a')).toBe(false);
    expect(DICT_CODE.test('Order')).toBe(false);
  });
});
