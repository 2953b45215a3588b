import type { ColumnType, ModuleSpec } from '../../../api/codegen';

/** The column types the generator knows, in the order the form offers them. */
export const COLUMN_TYPES: readonly ColumnType[] = [
  'string',
  'text',
  'integer',
  'number',
  'boolean',
  'date',
  'timestamp',
];

/** Types a column may be searched by (strings by the keyword, the others by a filter). */
export const SEARCHABLE_TYPES: readonly ColumnType[] = [
  'string',
  'text',
  'integer',
  'boolean',
  'date',
];

export interface ColumnValues {
  name?: string;
  type?: ColumnType;
  required?: boolean;
  searchable?: boolean;
  max_length?: number | null;
  description?: string;
}

/** The form's values: the description as typed, before it is tidied into a request. */
export interface SpecValues {
  service?: string;
  entity?: string;
  plural?: string;
  columns?: ColumnValues[];
}

export const NEW_COLUMN: ColumnValues = {
  name: '',
  type: 'string',
  required: false,
  searchable: false,
};

/** A first column, so the form starts as something that can be previewed once named. */
export const START_VALUES: SpecValues = {
  service: '',
  entity: '',
  plural: '',
  columns: [{ ...NEW_COLUMN, name: 'name', required: true, searchable: true }],
};

/**
 * The request for the form's values: names trimmed; empty optional parts left out; a length only
 * for a string, searching only for a type that can be searched (the form hides the rest, but
 * keeps what was typed before the type changed).
 */
export function specOf(values: SpecValues): ModuleSpec {
  const plural = values.plural?.trim();
  return {
    service: (values.service ?? '').trim(),
    entity: (values.entity ?? '').trim(),
    ...(plural ? { plural } : {}),
    columns: (values.columns ?? []).map((c) => {
      const type = c.type ?? 'string';
      const description = c.description?.trim();
      return {
        name: (c.name ?? '').trim(),
        type,
        required: c.required === true,
        searchable: c.searchable === true && SEARCHABLE_TYPES.includes(type),
        ...(type === 'string' && typeof c.max_length === 'number'
          ? { max_length: c.max_length }
          : {}),
        ...(description ? { description } : {}),
      };
    }),
  };
}

/** A server field (`columns.2.name`) as the form's name path (`['columns', 2, 'name']`). */
export function fieldPath(field: string): (string | number)[] {
  return field.split('.').map((part) => (/^\d+$/.test(part) ? Number(part) : part));
}

/** Whether a preview was made of this very description (the write sends what it showed). */
export function sameSpec(a: ModuleSpec | null, b: ModuleSpec | null): boolean {
  return a !== null && b !== null && JSON.stringify(a) === JSON.stringify(b);
}
