/**
 * What a change did to a record, field by field, from the business audit's `before` and `after`
 * snapshots: nested objects are walked to their leaves (`settings.limit`), arrays compared whole
 * (a role's permission list reads better as one before/after than as index shuffles).
 */

export type ChangeKind = 'added' | 'removed' | 'changed' | 'same';

/** One field of the record: its path, the two values (undefined when absent) and the kind. */
export interface FieldChange {
  path: string;
  before: unknown;
  after: unknown;
  kind: ChangeKind;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function equal(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function walk(before: unknown, after: unknown, path: string, out: FieldChange[]) {
  if (isRecord(before) || isRecord(after)) {
    const b = isRecord(before) ? before : {};
    const a = isRecord(after) ? after : {};
    // A record that appears or disappears whole is still listed field by field.
    if ((isRecord(before) || before == null) && (isRecord(after) || after == null)) {
      const keys = [...new Set([...Object.keys(b), ...Object.keys(a)])].sort();
      for (const key of keys) walk(b[key], a[key], path ? `${path}.${key}` : key, out);
      return;
    }
  }
  const kind: ChangeKind =
    before === undefined && after !== undefined
      ? 'added'
      : after === undefined && before !== undefined
        ? 'removed'
        : equal(before, after)
          ? 'same'
          : 'changed';
  out.push({ path: path || '(value)', before, after, kind });
}

/** Every field of either snapshot (null snapshots: a create or a delete), sorted by path. */
export function diffRecords(before: unknown, after: unknown): FieldChange[] {
  const out: FieldChange[] = [];
  if (before == null && after == null) return out;
  walk(before ?? undefined, after ?? undefined, '', out);
  return out;
}

/** A value as the diff shows it: strings as they are, the rest as compact JSON; absent as empty. */
export function showValue(value: unknown): string {
  if (value === undefined) return '';
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}
