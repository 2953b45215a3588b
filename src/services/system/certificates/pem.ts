const BEGIN = '-----BEGIN CERTIFICATE-----';
const END = '-----END CERTIFICATE-----';

/**
 * The certificate blocks of a PEM text, in order, found with indexOf (linear, whatever the
 * input). Text outside the blocks is ignored, as OpenSSL does; undefined when a block is not
 * closed.
 */
export function certificateBlocks(text: string): string[] | undefined {
  const blocks: string[] = [];
  let at = text.indexOf(BEGIN);
  while (at >= 0) {
    const end = text.indexOf(END, at + BEGIN.length);
    if (end < 0) return undefined;
    blocks.push(`${text.slice(at, end + END.length)}\n`);
    at = text.indexOf(BEGIN, end + END.length);
  }
  return blocks;
}
