/**
 * The people directory every signed-in user may read (`GET /bpm/directory/users` and
 * `/departments`): who a user id or department id is, for pickers and for showing names where
 * the API answers ids (form values, stand-ins, on-behalf-of, timeline details).
 */
import { useQueries, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { api, data } from './client';

export interface Person {
  id: number;
  name: string;
  dept_id: number | null;
  dept_name: string | null;
  active: boolean;
}

export interface Department {
  id: number;
  name: string;
  parent_id: number | null;
}

/** The most ids one `ids=` look-up takes (the server's limit). */
export const MAX_IDS = 100;
const STALE_MS = 5 * 60_000;

export const directoryKeys = {
  search: (keyword: string) => ['directory', 'users', 'search', keyword] as const,
  person: (id: number) => ['directory', 'users', 'id', id] as const,
  departments: ['directory', 'departments'] as const,
};

/** A list answer, bare or paged. */
function listOf<T>(value: unknown): T[] {
  if (Array.isArray(value)) return value as T[];
  const list = (value as { list?: unknown } | null)?.list;
  return Array.isArray(list) ? (list as T[]) : [];
}

/** Active people of the caller's tenant whose username or name matches (at most 20). */
export async function searchPeople(keyword: string): Promise<Person[]> {
  const query: Record<string, string> = keyword ? { keyword } : {};
  return listOf<Person>(await data(api.GET('/api/v1/bpm/directory/users', { params: { query } })));
}

/** The people with these ids (at most 100), inactive ones included with `active: false`. */
export async function peopleByIds(ids: number[]): Promise<Person[]> {
  if (ids.length === 0) return [];
  return listOf<Person>(
    await data(
      api.GET('/api/v1/bpm/directory/users', { params: { query: { ids: ids.join(',') } } }),
    ),
  );
}

export async function fetchDepartments(): Promise<Department[]> {
  return listOf<Department>(await data(api.GET('/api/v1/bpm/directory/departments')));
}

/**
 * Gathers the ids asked for within one turn of the event loop into as few calls as the limit
 * allows (each id once), and answers each caller its own record, or null when there is none.
 */
export function createBatcher<T extends { id: number }>(
  fetchMany: (ids: number[]) => Promise<T[]>,
  max = MAX_IDS,
): (id: number) => Promise<T | null> {
  type Waiter = { resolve: (v: T | null) => void; reject: (e: unknown) => void };
  let pending = new Map<number, Waiter[]>();
  const flush = () => {
    const batch = pending;
    pending = new Map();
    const ids = [...batch.keys()];
    for (let i = 0; i < ids.length; i += max) {
      const chunk = ids.slice(i, i + max);
      const settle = (each: (w: Waiter, id: number) => void) => {
        for (const id of chunk) for (const w of batch.get(id) ?? []) each(w, id);
      };
      fetchMany(chunk).then(
        (found) => {
          const byId = new Map(found.map((x) => [x.id, x]));
          settle((w, id) => w.resolve(byId.get(id) ?? null));
        },
        (error: unknown) => settle((w) => w.reject(error)),
      );
    }
  };
  return (id) =>
    new Promise((resolve, reject) => {
      if (pending.size === 0) setTimeout(flush, 0);
      const waiting = pending.get(id) ?? [];
      waiting.push({ resolve, reject });
      pending.set(id, waiting);
    });
}

const loadPerson = createBatcher(peopleByIds);

/** Positive integer ids, each once, in order. */
export function idsOf(values: readonly unknown[]): number[] {
  const out: number[] = [];
  for (const v of values)
    if (typeof v === 'number' && Number.isInteger(v) && v > 0 && !out.includes(v)) out.push(v);
  return out;
}

export interface PeopleLookup {
  byId: ReadonlyMap<number, Person>;
  /** Some look-up is still on its way. */
  isPending: boolean;
  isError: boolean;
}

/**
 * The people with these ids, one cached query per id (so a name read once is read from the
 * cache everywhere after), fetched together in batched calls.
 */
export function usePeople(ids: readonly unknown[]): PeopleLookup {
  const wanted = idsOf(ids);
  const results = useQueries({
    queries: wanted.map((id) => ({
      queryKey: directoryKeys.person(id),
      queryFn: () => loadPerson(id),
      staleTime: STALE_MS,
    })),
  });
  const key = `${wanted.join(',')}|${results.map((r) => r.dataUpdatedAt).join(',')}`;
  const isPending = results.some((r) => r.isPending);
  const isError = results.some((r) => r.isError);
  const byId = useMemo(() => {
    const map = new Map<number, Person>();
    for (const r of results) if (r.data) map.set(r.data.id, r.data);
    return map;
    // `results` is a new array each render; its data changes only with dataUpdatedAt.
  }, [key]);
  return { byId, isPending, isError };
}

export function useDepartments(enabled = true) {
  return useQuery({
    queryKey: directoryKeys.departments,
    queryFn: fetchDepartments,
    staleTime: STALE_MS,
    enabled,
  });
}
