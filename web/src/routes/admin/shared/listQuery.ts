/**
 * A list's view in the URL (`?page=2&page_size=20&status=disabled`), so a link reproduces what
 * the administrator saw: the page, its size and each filter, read back with the types the API
 * takes. A new filter goes back to page 1.
 */
import { useSearchParams } from 'react-router';

export const DEFAULT_PAGE_SIZE = 10;
const MAX_PAGE_SIZE = 100;

/** A positive integer of the URL, or the fallback for anything else. */
function positive(text: string | null, fallback: number, max = Number.MAX_SAFE_INTEGER) {
  if (!text || !/^[1-9]\d{0,8}$/.test(text)) return fallback;
  return Math.min(Number(text), max);
}

export interface ListQuery<K extends string> {
  page: number;
  page_size: number;
  /** Each filter as the URL has it; absent when empty. */
  filters: Partial<Record<K, string>>;
}

/** The page, size and filters `keys` of the URL's query. */
export function readListQuery<K extends string>(
  params: URLSearchParams,
  keys: readonly K[],
): ListQuery<K> {
  const filters: Partial<Record<K, string>> = {};
  for (const key of keys) {
    const value = params.get(key);
    if (value) filters[key] = value;
  }
  return {
    page: positive(params.get('page'), 1),
    page_size: positive(params.get('page_size'), DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE),
    filters,
  };
}

/** The URL's query with one filter set (or removed when empty) and the page back to 1. */
export function withFilter(params: URLSearchParams, key: string, value: string | number | null) {
  const next = new URLSearchParams(params);
  if (value === null || value === '') next.delete(key);
  else next.set(key, String(value));
  next.delete('page');
  return next;
}

/** The URL's query on another page or page size (page 1 and size 10 are left out). */
export function withPage(params: URLSearchParams, page: number, pageSize: number) {
  const next = new URLSearchParams(params);
  if (page > 1) next.set('page', String(page));
  else next.delete('page');
  if (pageSize !== DEFAULT_PAGE_SIZE) next.set('page_size', String(pageSize));
  else next.delete('page_size');
  return next;
}

/** An id filter of the URL as a number, or undefined. */
export function idFilter(value: string | undefined): number | undefined {
  return value && /^[1-9]\d{0,14}$/.test(value) ? Number(value) : undefined;
}

/** The list's view from the URL, and the setters that write it back there. */
export function useListQuery<K extends string>(keys: readonly K[]) {
  const [params, setParams] = useSearchParams();
  const query = readListQuery(params, keys);
  return {
    ...query,
    setFilter: (key: K, value: string | number | null) =>
      setParams(withFilter(params, key, value), { replace: true }),
    setPage: (page: number, pageSize: number) => setParams(withPage(params, page, pageSize)),
  };
}
