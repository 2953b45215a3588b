/**
 * The client's file name, kept for display and the download's Content-Disposition only (the
 * bytes are stored under a random key): path parts, control and bidi characters and characters
 * Windows refuses are dropped, and the length is bounded.
 */
const MAX_NAME_LENGTH = 200;

export function sanitizeFileName(raw: string | undefined): string {
  const base = (raw ?? '').split(/[\\/]/).pop() ?? '';
  const cleaned = base
    .normalize('NFC')
    // C0/C1 controls, bidi overrides and isolates, zero-width characters.
    // eslint-disable-next-line no-control-regex -- removing control characters is the point
    .replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g, '')
    .replace(/[<>:"|?*]/g, '_')
    .trim()
    // Leading dots: no hidden files, nothing that reads as `..`.
    .replace(/^\.+/, '');
  const bounded = [...cleaned].slice(0, MAX_NAME_LENGTH).join('');
  return bounded === '' ? 'file' : bounded;
}

/** Types a browser may show inline: raster images only (an SVG can run script). */
const INLINE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

export const servedInline = (contentType: string): boolean => INLINE_TYPES.has(contentType);

const MEDIA_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,62}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/;

/** The client's declared type if it is a plain media type (no parameters), else octet-stream. */
export function storedContentType(declared: string | undefined): string {
  const type = (declared ?? '').trim().toLowerCase();
  return MEDIA_TYPE.test(type) ? type : 'application/octet-stream';
}

/**
 * Content-Disposition for `name` (RFC 6266): an ASCII fallback `filename` with anything outside
 * printable ASCII (and quotes, backslashes, `%`) replaced, and the exact name as `filename*`.
 */
export function contentDisposition(type: 'attachment' | 'inline', name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  const encoded = encodeURIComponent(name).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${type}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
