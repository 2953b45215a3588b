import { Button, Space, Typography, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import {
  useAdminInstances,
  useInstanceDiagrams,
  type AdminInstance,
} from '../../../api/approvalsAdmin';
import { AdminTable } from '../../admin/shared/AdminTable';
import { ConfirmButton } from '../../admin/shared/ConfirmButton';
import { readListQuery } from '../../admin/shared/listQuery';
import { InstanceLink, when } from '../shared/columns';
import { findNode } from '../shared/repair';
import { SuspendReasonText } from '../shared/SuspendReasonText';
import { useTerminate } from './useTerminate';

/** The queue's page lives in the URL under its own keys, beside the main list's. */
const PAGE = 'stuck_page';
const SIZE = 'stuck_page_size';

/**
 * The stuck queue: suspended requests, each with its reason in words, repaired in place (the
 * page opens the repair dialog) or terminated.
 */
export function StuckQueue({ onRepair }: { onRepair: (instance: AdminInstance) => void }) {
  const { t } = useTranslation('approvals');
  const [params, setParams] = useSearchParams();
  const own = new URLSearchParams();
  for (const [from, to] of [
    [PAGE, 'page'],
    [SIZE, 'page_size'],
  ] as const) {
    const value = params.get(from);
    if (value) own.set(to, value);
  }
  const { page, page_size } = readListQuery(own, []);
  const stuck = useAdminInstances({ status: 'suspended', page, page_size });
  const rows = stuck.data?.list ?? [];
  const diagrams = useInstanceDiagrams(rows.map((i) => i.id));
  const stepName = (index: number, instance: AdminInstance) => {
    const nodeId = instance.suspend_reason?.node_id;
    return nodeId ? findNode(diagrams[index]?.data?.tree, nodeId)?.name : undefined;
  };
  const terminate = useTerminate();
  const setPage = (next: number, size: number) => {
    const p = new URLSearchParams(params);
    if (next > 1) p.set(PAGE, String(next));
    else p.delete(PAGE);
    if (size !== 10) p.set(SIZE, String(size));
    else p.delete(SIZE);
    setParams(p);
  };

  const columns: TableColumnsType<AdminInstance> = [
    { title: t('instances.id'), dataIndex: 'id', key: 'id' },
    {
      title: t('instances.request'),
      key: 'title',
      render: (_, i) => <InstanceLink instance={i} />,
    },
    { title: t('instances.definition'), dataIndex: 'definition_key', key: 'definition' },
    {
      title: t('stuck.reason'),
      key: 'reason',
      render: (_, i, index) => (
        <SuspendReasonText reason={i.suspend_reason} nodeName={stepName(index, i)} />
      ),
    },
    { title: t('instances.started'), key: 'started', render: (_, i) => when(i.created_at) },
    {
      title: t('common.actions'),
      key: 'actions',
      render: (_, i) => (
        <Space size={0} wrap>
          <Button size="small" type="link" onClick={() => onRepair(i)}>
            {t('stuck.repair')}
          </Button>
          <ConfirmButton
            question={t('instances.terminateQuestion', { title: i.title })}
            action={t('instances.terminate')}
            onConfirm={() => terminate(i)}
          >
            {t('instances.terminate')}
          </ConfirmButton>
        </Space>
      ),
    },
  ];

  return (
    <AdminTable<AdminInstance>
      title={t('stuck.title')}
      testId="stuck-table"
      toolbar={<Typography.Text type="secondary">{t('stuck.intro')}</Typography.Text>}
      query={stuck}
      columns={columns}
      rowKey="id"
      page={page}
      pageSize={page_size}
      onPage={setPage}
      emptyText={t('stuck.empty')}
    />
  );
}
