/** Number and table formatting shared by the sections of the `npm run bench:bpm` report. */

/** A figure with `digits` decimals and thousands separators; – for NaN or infinity. */
export const f = (x: number, digits = 1) =>
  Number.isFinite(x)
    ? x.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })
    : '–';
export const pct = (x: number) => `${f(x * 100, 0)} %`;

/** A Markdown table: the first column left-aligned, the figures right-aligned. */
export const table = (head: string[], rows: string[][]) =>
  [
    `| ${head.join(' | ')} |`,
    `|${head.map((_, i) => (i === 0 ? '---' : '---:')).join('|')}|`,
    ...rows.map((r) => `| ${r.join(' | ')} |`),
  ].join('\n');
