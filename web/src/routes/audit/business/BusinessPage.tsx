import { Button, Input, Space, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useBusinessAudit, type BusinessAuditRow } from '../../../api/audit';
import { AdminTable } from '../../admin/shared/AdminTable';
import { useListQuery } from '../../admin/shared/listQuery';
import { ExportButton } from '../shared/ExportButton';
import { BUSINESS_FILTERS, businessQuery } from '../shared/queries';
import { TimeRange } from '../shared/TimeRange';
import { AuditDiff } from './AuditDiff';
import { ChainVerification } from './ChainVerification';
import { Facets } from './Facets';

/** `/audit/business`: every recorded change, faceted by action and target, with its diff. */
export default function BusinessPage() {
  const { t } = useTranslation('audit');
  const list = useListQuery(BUSINESS_FILTERS);
  const filters = businessQuery(list.filters);
  const audit = useBusinessAudit({ page: list.page, page_size: list.page_size, ...filters });
  const [open, setOpen] = useState<BusinessAuditRow | null>(null);
  const facets = audit.data?.facets;

  const columns: TableColumnsType<BusinessAuditRow> = [
    {
      title: t('common.time'),
      key: 'created_at',
      render: (_, r) => new Date(r.created_at).toLocaleString(),
    },
    { title: t('business.actor'), dataIndex: 'actor_name', key: 'actor' },
    { title: t('business.action'), dataIndex: 'action', key: 'action' },
    { title: t('business.targetType'), dataIndex: 'target_type', key: 'target_type' },
    { title: t('business.targetId'), dataIndex: 'target_id', key: 'target_id' },
    { title: t('business.summary'), dataIndex: 'summary', key: 'summary' },
    {
      title: t('common.actions'),
      key: 'actions',
      render: (_, r) => (
        <Button size="small" type="link" onClick={() => setOpen(r)}>
          {t('business.diff')}
        </Button>
      ),
    },
  ];

  const search = (key: 'keyword' | 'target_id' | 'actor_id', label: string, width = 180) => (
    <Input.Search
      key={`${key}-${list.filters[key] ?? ''}`}
      aria-label={label}
      placeholder={label}
      defaultValue={list.filters[key]}
      allowClear
      onSearch={(v) => list.setFilter(key, v.trim())}
      style={{ width }}
    />
  );

  return (
    <>
      <ChainVerification />
      <AdminTable<BusinessAuditRow>
        title={t('business.title')}
        testId="business-audit-table"
        toolbar={
          <>
            <Space wrap style={{ marginBottom: 8 }}>
              {search('keyword', t('business.keyword'), 220)}
              {search('target_id', t('business.targetId'), 140)}
              <TimeRange />
              <ExportButton
                request={{ kind: 'business', query: filters }}
                prefix="business-audit"
              />
            </Space>
            <div>
              <Facets
                label={t('business.facetsActions')}
                facets={facets?.action ?? []}
                chosen={filters.action}
                onChoose={(v) => list.setFilter('action', v)}
                testId="facet-action"
              />
            </div>
            <div>
              <Facets
                label={t('business.facetsTargets')}
                facets={facets?.target_type ?? []}
                chosen={filters.target_type}
                onChoose={(v) => list.setFilter('target_type', v)}
                testId="facet-target-type"
              />
            </div>
          </>
        }
        query={audit}
        columns={columns}
        rowKey="id"
        page={list.page}
        pageSize={list.page_size}
        onPage={list.setPage}
        emptyText={t('business.empty')}
      />
      <AuditDiff row={open} onClose={() => setOpen(null)} />
    </>
  );
}
