/**
 * A dictionary's items as the drawer edits them (rows in the order shown) and as the API takes
 * them: `sort` follows the rows' order, with gaps so an item added by hand between two fits.
 */
import type { DictItem, DictItemInput } from '../../../api/systemAdmin';

export const DICT_CODE = /^[a-z][a-z0-9._-]{1,63}$/;
export const MAX_DICT_ITEMS = 500;
const SORT_STEP = 10;

/** One row of the drawer. */
export interface ItemRow {
  value: string;
  label: string;
  label_en?: string | null;
  enabled: boolean;
}

/** The rows for a dictionary's items (already in the server's order). */
export function rowsOf(items: readonly DictItem[]): ItemRow[] {
  return items.map(({ value, label, label_en, enabled }) => ({ value, label, label_en, enabled }));
}

/** The items to send: trimmed, an empty English label as none, `sort` in the rows' order. */
export function itemsBody(rows: readonly ItemRow[]): DictItemInput[] {
  return rows.map((row, i) => ({
    value: row.value.trim(),
    label: row.label.trim(),
    label_en: row.label_en?.trim() || null,
    sort: (i + 1) * SORT_STEP,
    enabled: row.enabled,
  }));
}

/** The values that appear more than once (the API refuses them): the second and later rows. */
export function duplicateRows(rows: readonly Pick<ItemRow, 'value'>[]): number[] {
  const seen = new Set<string>();
  const repeats: number[] = [];
  rows.forEach((row, i) => {
    const value = (row?.value ?? '').trim();
    if (!value) return;
    if (seen.has(value)) repeats.push(i);
    seen.add(value);
  });
  return repeats;
}

/** A server field (`items.3.value`) as the form's name path (`['items', 3, 'value']`). */
export function itemFieldPath(field: string): (string | number)[] {
  return field.split('.').map((part) => (/^\d+$/.test(part) ? Number(part) : part));
}
