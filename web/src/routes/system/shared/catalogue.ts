/**
 * The platform's catalogues (error texts, templates) come whole in one answer: the pages filter
 * and page them here, with the same URL view (`?keyword=…&page=2`) as a list the server pages.
 */
import type { ListPage } from '../../admin/shared/AdminTable';

/** Whether any of the texts holds the keyword, whatever the letter case; no keyword: yes. */
export function matchesKeyword(keyword: string | undefined, ...texts: string[]): boolean {
  const wanted = keyword?.trim().toLowerCase();
  if (!wanted) return true;
  return texts.some((text) => text.toLowerCase().includes(wanted));
}

/** One page of a list held whole, with its total. */
export function pageOf<T>(items: readonly T[], page: number, pageSize: number): ListPage<T> {
  const from = (page - 1) * pageSize;
  return { list: items.slice(from, from + pageSize), total: items.length };
}
