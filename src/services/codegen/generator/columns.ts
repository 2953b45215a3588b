import type { ColumnSpec } from './spec.js';

/**
 * What each column type becomes in each layer: SQL, the Kysely table type, the request schema,
 * the view, a query filter, and a sample value for the generated test.
 */
interface TypeFacts {
  sql(column: ColumnSpec): string;
  /** The Kysely column type (`| null` added for an optional column). */
  table: string;
  /** The zod schema of a body field (before optional/nullable). */
  body(column: ColumnSpec): string;
  /** The zod schema of the field in the view (before nullable). */
  view: string;
  /** How the column is selected: a cast where the driver would not give the view's type. */
  select?: (name: string) => string;
  /** How it is turned into the view's value (`value` is the row's), when it is not as is. */
  toView?: (value: string) => string;
  /** The zod schema of its exact-match query filter, for a searchable non-text column. */
  filter?: string;
  /** A value for the generated test, and a second one for the update. */
  samples: [string, string];
}

export const TYPE_FACTS: Record<ColumnSpec['type'], TypeFacts> = {
  string: {
    sql: (c) => `varchar(${c.max_length ?? 255})`,
    table: 'string',
    body: (c) => `z.string().trim()${c.required ? '.min(1)' : ''}.max(${c.max_length ?? 255})`,
    view: 'z.string()',
    samples: ["'Alpha'", "'Beta'"],
  },
  text: {
    sql: () => 'text',
    table: 'string',
    body: (c) => `z.string()${c.required ? '.trim().min(1)' : ''}.max(10_000)`,
    view: 'z.string()',
    samples: ["'Some words'", "'Other words'"],
  },
  integer: {
    sql: () => 'integer',
    table: 'number',
    body: () => 'z.number().int().min(-2_147_483_648).max(2_147_483_647)',
    view: 'z.number().int()',
    filter: 'integerFilter',
    samples: ['42', '7'],
  },
  number: {
    sql: () => 'double precision',
    table: 'number',
    body: () => 'z.number().min(-1e15).max(1e15)',
    view: 'z.number()',
    samples: ['3.5', '-0.25'],
  },
  boolean: {
    sql: () => 'boolean',
    table: 'boolean',
    body: () => 'z.boolean()',
    view: 'z.boolean()',
    filter: 'booleanFilter',
    samples: ['true', 'false'],
  },
  date: {
    sql: () => 'date',
    // Read as text (`::text`): the driver would make a local-time Date of it.
    table: 'string',
    body: () => 'z.iso.date()',
    view: 'z.iso.date()',
    select: (name) => `sql<string>\`${name}::text\`.as('${name}')`,
    filter: 'dateFilter',
    samples: ["'2026-01-31'", "'2026-02-28'"],
  },
  timestamp: {
    sql: () => 'timestamptz',
    table: 'ColumnType<Date, string, string>',
    body: () => 'z.iso.datetime({ offset: true })',
    view: 'timestamp',
    toView: (value) => `${value}.toISOString()`,
    samples: ["'2026-01-31T08:00:00.000Z'", "'2026-02-28T17:30:00.000Z'"],
  },
};

/** Columns matched by the `keyword` filter. */
export const keywordColumns = (columns: ColumnSpec[]) =>
  columns.filter((c) => c.searchable && (c.type === 'string' || c.type === 'text'));

/** Columns with an exact-match filter of their own. */
export const filterColumns = (columns: ColumnSpec[]) =>
  columns.filter((c) => c.searchable && TYPE_FACTS[c.type].filter !== undefined);

/** The table type of a column, `| null` when it is optional. */
export function tableType(column: ColumnSpec): string {
  const type = TYPE_FACTS[column.type].table;
  if (column.required) return type;
  return type.startsWith('ColumnType<')
    ? 'ColumnType<Date | null, string | null, string | null>'
    : `${type} | null`;
}
