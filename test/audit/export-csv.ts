/** Reading the CSV exports back in tests: the raw bytes, and the records parsed by RFC 4180. */

/** GETs an export as raw bytes (fetch's text() would strip the BOM) and its parsed records. */
export async function fetchCsv(url: string, token: string) {
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  const bytes = new Uint8Array(await res.arrayBuffer());
  const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
  return { res, bytes, text, records: parseCsv(text.replace(/^\uFEFF/, '')) };
}

/**
 * Records of an RFC 4180 document: fields split on commas, a quoted field may hold commas,
 * line breaks and doubled quotes; every record ends with `\n`. Throws on anything else, so a
 * quoting mistake fails the test instead of shifting columns.
 */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let i = 0;
  while (i < text.length) {
    let field = '';
    if (text[i] === '"') {
      i++;
      for (;;) {
        const quote = text.indexOf('"', i);
        if (quote === -1) throw new Error('unterminated quoted field');
        field += text.slice(i, quote);
        i = quote + 1;
        if (text[i] !== '"') break;
        field += '"';
        i++;
      }
    } else {
      while (i < text.length && text[i] !== ',' && text[i] !== '\n') {
        if (text[i] === '"' || text[i] === '\r') throw new Error(`bare ${text[i]} in a field`);
        field += text[i++];
      }
    }
    record.push(field);
    if (text[i] === ',') {
      i++;
    } else if (text[i] === '\n') {
      records.push(record);
      record = [];
      i++;
    } else {
      throw new Error(`unexpected ${JSON.stringify(text[i] ?? 'end of text')} after a field`);
    }
  }
  return records;
}

/** The records as objects keyed by the header's names. */
export function csvObjects(records: string[][]): Record<string, string>[] {
  const [header, ...rows] = records;
  if (!header) throw new Error('no header');
  return rows.map((row) => {
    if (row.length !== header.length) throw new Error(`record of ${row.length} fields`);
    return Object.fromEntries(header.map((name, k) => [name, row[k]!]));
  });
}
