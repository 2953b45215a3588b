import { setImmediate as tick } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { csvPages, type CsvPage } from './csv.js';

/** A source of `total` numbered rows, one line each, recording every page it is asked for. */
function source(total: number) {
  const calls: Array<{ after: number | undefined; limit: number }> = [];
  const readPage = async (after: number | undefined, limit: number): Promise<CsvPage<number>> => {
    calls.push({ after, limit });
    const first = (after ?? 0) + 1;
    const last = Math.min(total, first + limit - 1);
    let lines = '';
    for (let n = first; n <= last; n++) lines += `${n}\n`;
    return { lines: lines || null, rows: Math.max(0, last - first + 1), last };
  };
  return { calls, readPage };
}

async function text(stream: NodeJS.ReadableStream) {
  let out = '';
  for await (const chunk of stream) out += String(chunk);
  return out;
}

const numbers = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, k) => `${from + k}\n`).join('');

describe('csvPages', () => {
  it('writes the BOM, the header line, then every page in order, each page after the last', async () => {
    const { calls, readPage } = source(7);
    const out = await text(csvPages({ header: ['n', 'm'], readPage, maxRows: 100, pageRows: 3 }));
    expect(out).toBe(`\uFEFFn,m\n${numbers(1, 7)}`);
    // The third page is short: the export ends without asking for a fourth.
    expect(calls).toEqual([
      { after: undefined, limit: 3 },
      { after: 3, limit: 3 },
      { after: 6, limit: 3 },
    ]);
  });

  it('stops at maxRows, asking the last page for only what is left', async () => {
    const { calls, readPage } = source(1000);
    const out = await text(csvPages({ header: ['n'], readPage, maxRows: 8, pageRows: 3 }));
    expect(out).toBe(`\uFEFFn\n${numbers(1, 8)}`);
    expect(calls.map((c) => c.limit)).toEqual([3, 3, 2]);
  });

  it('asks for one more page after a full one that ends exactly on the data', async () => {
    const { calls, readPage } = source(6);
    const out = await text(csvPages({ header: ['n'], readPage, maxRows: 100, pageRows: 3 }));
    expect(out).toBe(`\uFEFFn\n${numbers(1, 6)}`);
    expect(calls).toHaveLength(3);
  });

  it('writes only the header when there is nothing to export', async () => {
    const { readPage } = source(0);
    expect(await text(csvPages({ header: ['a'], readPage, maxRows: 100, pageRows: 3 }))).toBe(
      '\uFEFFa\n',
    );
  });

  it('reads one page ahead of the consumer and no further', async () => {
    const { calls, readPage } = source(1_000_000);
    const stream = csvPages({ header: ['n'], readPage, maxRows: 1_000_000, pageRows: 10 });
    const chunks = stream[Symbol.asyncIterator]();
    await chunks.next(); // header
    await chunks.next(); // page 1
    await chunks.next(); // page 2
    for (let k = 0; k < 20; k++) await tick();
    // Page 3 waits in the stream's one-chunk buffer and page 4 is being read: nothing more.
    expect(calls.length).toBeGreaterThanOrEqual(3);
    expect(calls.length).toBeLessThanOrEqual(4);
    stream.destroy();
  });

  it('errors the stream when a page cannot be read', async () => {
    let call = 0;
    const stream = csvPages<number>({
      header: ['n'],
      readPage: async () => {
        if (++call === 2) throw new Error('database went away');
        return { lines: '1\n', rows: 1, last: 1 };
      },
      maxRows: 100,
      pageRows: 1,
    });
    await expect(text(stream)).rejects.toThrow('database went away');
  });

  it('leaves no unhandled rejection when the consumer stops while a page read fails', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      let call = 0;
      const stream = csvPages<number>({
        header: ['n'],
        readPage: async () => {
          if (++call === 2) {
            await tick();
            throw new Error('late failure');
          }
          return { lines: '1\n', rows: 1, last: 1 };
        },
        maxRows: 100,
        pageRows: 1,
      });
      const chunks = stream[Symbol.asyncIterator]();
      await chunks.next();
      await chunks.next();
      await chunks.return?.();
      for (let k = 0; k < 10; k++) await tick();
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
