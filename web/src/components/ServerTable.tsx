import { useQuery } from '@tanstack/react-query';
import { Card, Table, type TableColumnsType, type TableProps } from 'antd';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Page } from '../api/bpm';
import { EmptyState, ErrorState } from './states';

export type SortOrder = 'asc' | 'desc';
/** The server-side order: a column `key` the endpoint whitelists, and its direction. */
export interface Sorting<S extends string> {
  sort?: S;
  order?: SortOrder;
}

interface Props<T, F, S extends string> {
  title: ReactNode;
  queryKey: string;
  filters: F;
  /** The filter bar; it changes `filters`, which resets to page 1. */
  toolbar?: ReactNode;
  fetch: (query: F & Sorting<S> & { page: number; page_size: number }) => Promise<Page<T>>;
  /**
   * A column with `sorter: true` sorts on the server by its `key` (one of the endpoint's `sort`
   * keys); a column with a compare function sorts only the rows of the page on screen.
   */
  columns: TableColumnsType<T>;
  rowKey: keyof T & string;
  emptyText?: string;
  /** Rows the reader may pick (the todo list's batch approve). */
  rowSelection?: TableProps<T>['rowSelection'];
}

/**
 * A list the server pages and sorts: `page`/`page_size` and `sort`/`order` go to the API, the
 * total comes back. A new sort or new filters start again at page 1.
 */
export function ServerTable<T extends object, F extends object, S extends string = never>(
  props: Props<T, F, S>,
) {
  const { t } = useTranslation();
  const [paging, setPaging] = useState({ page: 1, page_size: 10 });
  const [sorting, setSorting] = useState<Sorting<S>>({});
  const [lastFilters, setLastFilters] = useState(props.filters);
  if (JSON.stringify(lastFilters) !== JSON.stringify(props.filters)) {
    setLastFilters(props.filters);
    setPaging((p) => ({ ...p, page: 1 }));
  }
  const query = useQuery({
    queryKey: ['list', props.queryKey, props.filters, sorting, paging],
    queryFn: () => props.fetch({ ...props.filters, ...sorting, ...paging }),
    placeholderData: (prev) => prev,
  });
  const onChange: TableProps<T>['onChange'] = (_pagination, _filters, sorter, extra) => {
    if (extra.action !== 'sort') return;
    const next = serverSorting<T, S>(sorter);
    if (next === null) return;
    setSorting(next);
    setPaging((p) => ({ ...p, page: 1 }));
  };
  return (
    <Card title={props.title} extra={props.toolbar} styles={{ body: { padding: 12 } }}>
      {query.isError ? (
        <ErrorState error={query.error} onRetry={() => void query.refetch()} />
      ) : (
        // The wrapper scrolls a table wider than the page and takes focus to do it by keyboard
        // (axe: scrollable-region-focusable). Not antd's own scroll box: its hidden measuring
        // row would hold a second, focusable copy of the pick-all checkbox.
        <div tabIndex={0} style={{ overflowX: 'auto' }}>
          <Table<T>
            rowKey={props.rowKey}
            rowSelection={props.rowSelection}
            size="middle"
            loading={query.isFetching}
            dataSource={query.data?.list ?? []}
            columns={props.columns.map((c) =>
              c.sorter === true ? { ...c, sortOrder: sortOrderOf(sorting, c.key) } : c,
            )}
            onChange={onChange}
            style={{ minWidth: 'max-content' }}
            locale={{ emptyText: <EmptyState text={props.emptyText} /> }}
            pagination={{
              current: paging.page,
              pageSize: paging.page_size,
              total: query.data?.total ?? 0,
              showSizeChanger: true,
              showTotal: (total) => t('common.total', { total }),
              onChange: (page, page_size) => setPaging({ page, page_size }),
            }}
          />
        </div>
      )}
    </Card>
  );
}

type Sorter<T> = Parameters<NonNullable<TableProps<T>['onChange']>>[2];

/** The column's indicator, controlled so that it always shows the order the server applied. */
function sortOrderOf<S extends string>(sorting: Sorting<S>, key: unknown) {
  if (sorting.sort === undefined || sorting.sort !== key) return null;
  return sorting.order === 'asc' ? ('ascend' as const) : ('descend' as const);
}

/** The server order a sorter change asks for; null when the column sorts on screen only. */
export function serverSorting<T, S extends string>(sorter: Sorter<T>): Sorting<S> | null {
  const one = Array.isArray(sorter) ? sorter[0] : sorter;
  if (!one) return {};
  if (one.column && one.column.sorter !== true) return null;
  if (!one.order || one.columnKey === undefined) return {};
  return { sort: String(one.columnKey) as S, order: one.order === 'ascend' ? 'asc' : 'desc' };
}

export const byText =
  <T,>(get: (row: T) => string | null | undefined) =>
  (a: T, b: T) =>
    (get(a) ?? '').localeCompare(get(b) ?? '');
export const byTime =
  <T,>(get: (row: T) => string | null | undefined) =>
  (a: T, b: T) =>
    Date.parse(get(a) ?? '0') - Date.parse(get(b) ?? '0');
export const when = (v: string | null) => (v ? new Date(v).toLocaleString() : '-');
