/**
 * `%keyword%` for ILIKE with `\`, `%` and `_` escaped (backslash is PostgreSQL's default LIKE
 * escape), so a keyword is always matched as literal text.
 */
export function containsPattern(keyword: string): string {
  return `%${keyword.replace(/[\\%_]/g, '\\$&')}%`;
}
