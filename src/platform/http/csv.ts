import { Readable } from 'node:stream';
import { sql, type RawBuilder } from 'kysely';

// CSV exports are formatted by the database, a page of rows into one text value, so the
// process only streams that text. Profiled: a JS object and strings for every cell (parsed,
// re-serialised, quoted) made 50 000 rows cost 8x psql's \copy, most of it in the GC.

const UTF8_BOM = '\uFEFF';

/**
 * SQL for one CSV field of `column` (any type, read as text), by RFC 4180: empty for NULL,
 * quoted with inner quotes doubled when it holds a quote, comma, CR or LF, else as is.
 */
function sqlCsvField(column: string): RawBuilder<string> {
  const text = sql`${sql.ref(column)}::text`;
  return sql`CASE WHEN ${text} ~ '[",\\r\\n]' THEN '"' || replace(${text}, '"', '""') || '"' ELSE coalesce(${text}, '') END`;
}

/**
 * SQL aggregating a page of rows (a subquery whose columns are named after the CSV's columns)
 * into CSV text: one line per row in `orderBy` order, fields in `columns` order, each line
 * ending in `\n`. Columns in `plain` (numbers, ISO times) can never need quotes and skip the
 * check. NULL for an empty page.
 */
export function sqlCsvLines(
  columns: readonly string[],
  orderBy: RawBuilder<unknown>,
  plain: readonly string[] = [],
): RawBuilder<string | null> {
  const fields = sql.join(
    columns.map((column) =>
      plain.includes(column) ? sql`coalesce(${sql.ref(column)}::text, '')` : sqlCsvField(column),
    ),
  );
  return sql`string_agg(concat_ws(',', ${fields}) || E'\\n', '' ORDER BY ${orderBy})`;
}

/**
 * SQL for the text `column` with a leading `'` when a spreadsheet would read it as a formula
 * (it starts with `=`, `+`, `-`, `@`, a tab or a CR: CSV injection). NULL stays NULL.
 */
export function sqlNeutralizeFormula(column: string): RawBuilder<string | null> {
  const text = sql.ref(column);
  return sql`CASE WHEN left(${text}, 1) IN ('=', '+', '-', '@', E'\\t', E'\\r') THEN '''' || ${text} ELSE ${text} END`;
}

/** One page of an export, already CSV. */
export interface CsvPage<Cursor> {
  /** The rows' lines, each ending in `\n` (null or '' for none). */
  lines: string | null;
  /** How many rows the page holds. */
  rows: number;
  /** Where the next page starts (the page's last row). */
  last: Cursor;
}

export interface CsvPagesOptions<Cursor> {
  /** The header line's column names. */
  header: readonly string[];
  /**
   * Up to `limit` rows in export order, following `after` (the previous page's `last`;
   * undefined for the first page): a keyset read, so every page costs the same.
   */
  readPage: (after: Cursor | undefined, limit: number) => Promise<CsvPage<Cursor>>;
  /** Rows written at most. */
  maxRows: number;
  /** Rows read per page. */
  pageRows: number;
}

/**
 * A CSV document as a byte stream: the UTF-8 BOM and the header line, then one chunk per page.
 * The next page's query runs while the current page is written, and no further page is read
 * until the consumer has taken it, so at most two pages are in memory whatever the row count.
 * A failed read errors the stream (the response is cut short).
 */
export function csvPages<Cursor>(options: CsvPagesOptions<Cursor>): Readable {
  // One chunk buffered at most. Strings, not Buffers: the socket copies a string into memory it
  // frees once written, where a Buffer per page would wait for a garbage collection.
  return Readable.from(chunks(options), { objectMode: true, highWaterMark: 1 });
}

async function* chunks<Cursor>(options: CsvPagesOptions<Cursor>): AsyncGenerator<string> {
  const { header, readPage, maxRows, pageRows } = options;
  yield `${UTF8_BOM}${header.join(',')}\n`;
  let sent = 0;
  let limit = Math.min(pageRows, maxRows);
  const read = (after: Cursor | undefined) => {
    const page = readPage(after, limit);
    // Awaited below; this keeps a failure after the consumer went away from going unhandled.
    page.catch(() => undefined);
    return page;
  };
  let next = limit > 0 ? read(undefined) : undefined;
  while (next) {
    const page = await next;
    sent += page.rows;
    const more = page.rows === limit && sent < maxRows;
    limit = Math.min(pageRows, maxRows - sent);
    next = more ? read(page.last) : undefined;
    if (page.lines) yield page.lines;
  }
}
