import type { UseQueryResult } from '@tanstack/react-query';
import { Card, Table, type TableColumnsType } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState, ErrorState } from '../../../components/states';

/** A page of a list as the API answers it. */
export interface ListPage<T> {
  list: T[];
  total: number;
}

interface Props<T> {
  title: ReactNode;
  /** The filters and the create button. */
  toolbar?: ReactNode;
  query: UseQueryResult<ListPage<T>>;
  columns: TableColumnsType<T>;
  rowKey: keyof T & string;
  page: number;
  pageSize: number;
  onPage: (page: number, pageSize: number) => void;
  emptyText: string;
  testId?: string;
}

/**
 * An admin list the server pages, the page and size held in the URL by the caller (see
 * listQuery.ts): loading, empty and error states, the total, and a size changer.
 */
export function AdminTable<T extends object>(props: Props<T>) {
  const { t } = useTranslation('admin');
  const { query } = props;
  return (
    <Card title={props.title} styles={{ body: { padding: 12 } }}>
      {props.toolbar && <div style={{ marginBottom: 12 }}>{props.toolbar}</div>}
      {query.isError ? (
        <ErrorState error={query.error} onRetry={() => void query.refetch()} />
      ) : (
        // The wrapper scrolls a table wider than the page, and takes focus to do it by keyboard
        // (a scrollable region must be focusable: axe's scrollable-region-focusable).
        <div tabIndex={0} style={{ overflowX: 'auto' }}>
          <Table<T>
            data-testid={props.testId}
            rowKey={props.rowKey}
            size="middle"
            loading={query.isFetching}
            dataSource={query.data?.list ?? []}
            columns={props.columns}
            style={{ minWidth: 'max-content' }}
            locale={{ emptyText: query.isPending ? ' ' : <EmptyState text={props.emptyText} /> }}
            pagination={{
              current: props.page,
              pageSize: props.pageSize,
              total: query.data?.total ?? 0,
              showSizeChanger: true,
              showTotal: (total) => t('common.total', { total }),
              onChange: props.onPage,
            }}
          />
        </div>
      )}
    </Card>
  );
}
