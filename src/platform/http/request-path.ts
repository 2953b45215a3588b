/**
 * The path a request names, as a router would resolve it: query and fragment dropped,
 * percent-decoded once, backslashes as slashes (as WHATWG URLs treat them), runs of slashes
 * collapsed, `.` and `..` segments resolved (never above the root). `null` when the
 * percent-encoding is invalid: callers fail closed. Linear in the length of the URL.
 */
export function normalizePath(url: string): string | null {
  const raw = url.split(/[?#]/, 1)[0] ?? '';
  let decoded: string;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    return null;
  }
  const out: string[] = [];
  for (const segment of decoded.replaceAll('\\', '/').split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') out.pop();
    else out.push(segment);
  }
  const trailing = /[/\\]$/.test(decoded) && out.length > 0 ? '/' : '';
  return `/${out.join('/')}${trailing}`;
}
