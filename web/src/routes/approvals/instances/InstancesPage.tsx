import { Button, DatePicker, Input, Select, Space, type TableColumnsType } from 'antd';
import dayjs from 'dayjs';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import {
  useAdminInstances,
  useDefinitionOptions,
  type AdminInstance,
  type AdminInstanceQuery,
  type InstanceStatus,
} from '../../../api/approvalsAdmin';
import { usePeople } from '../../../api/people';
import { PersonPicker } from '../../../form/PersonPicker';
import { AdminTable } from '../../admin/shared/AdminTable';
import { ConfirmButton } from '../../admin/shared/ConfirmButton';
import { idFilter, useListQuery, withFilter } from '../../admin/shared/listQuery';
import { InstanceLink, STATUSES, StatusTag, when } from '../shared/columns';
import { ReassignTaskModal } from './ReassignTaskModal';
import { ReassignUserModal } from './ReassignUserModal';
import { RepairModal } from './RepairModal';
import { StuckQueue } from './StuckQueue';
import { useTerminate } from './useTerminate';

const FILTERS = [
  'keyword',
  'status',
  'definition_key',
  'initiator_id',
  'start_time',
  'end_time',
] as const;

/** A time of the URL if it is one, for the API and the range picker. */
const validTime = (value: string | undefined) =>
  value && !Number.isNaN(Date.parse(value)) ? value : undefined;

/**
 * `/approvals/instances`: the stuck queue first (what needs an administrator now), then every
 * request of the tenant filtered by status, process, initiator, start time and keyword, each
 * linking to its detail, with force terminate, reassign, and repair for suspended ones.
 */
export default function InstancesPage() {
  const { t } = useTranslation('approvals');
  const list = useListQuery(FILTERS);
  const [params, setParams] = useSearchParams();
  const f = list.filters;
  const status = STATUSES.find((s) => s === f.status);
  const initiatorId = idFilter(f.initiator_id);
  const from = validTime(f.start_time);
  const to = validTime(f.end_time);
  const query: AdminInstanceQuery = {
    page: list.page,
    page_size: list.page_size,
    ...(f.keyword ? { keyword: f.keyword } : {}),
    ...(status ? { status } : {}),
    ...(f.definition_key ? { definition_key: f.definition_key } : {}),
    ...(initiatorId ? { initiator_id: initiatorId } : {}),
    ...(from ? { start_time: from } : {}),
    ...(to ? { end_time: to } : {}),
  } as AdminInstanceQuery;
  const instances = useAdminInstances(query);
  const definitions = useDefinitionOptions();
  const people = usePeople(instances.data?.list.map((i) => i.initiator_id) ?? []);
  const terminate = useTerminate();
  const [repairing, setRepairing] = useState<AdminInstance | null>(null);
  const [reassigning, setReassigning] = useState<AdminInstance | null>(null);
  const [reassignUser, setReassignUser] = useState(false);
  const definitionOptions = useMemo(() => {
    const seen = new Map<string, string>();
    for (const d of definitions.data?.list ?? []) if (!seen.has(d.key)) seen.set(d.key, d.name);
    return [...seen].map(([key, name]) => ({ value: key, label: `${name} (${key})` }));
  }, [definitions.data]);

  const setRange = (range: [string | null, string | null]) =>
    setParams(withFilter(withFilter(params, 'start_time', range[0]), 'end_time', range[1]), {
      replace: true,
    });

  const columns: TableColumnsType<AdminInstance> = [
    { title: t('instances.id'), dataIndex: 'id', key: 'id' },
    {
      title: t('instances.request'),
      key: 'title',
      render: (_, i) => <InstanceLink instance={i} />,
    },
    { title: t('instances.definition'), dataIndex: 'definition_key', key: 'definition' },
    {
      title: t('instances.status'),
      key: 'status',
      render: (_, i) => <StatusTag status={i.status as InstanceStatus} t={t} />,
    },
    {
      title: t('instances.initiator'),
      key: 'initiator',
      render: (_, i) => people.byId.get(i.initiator_id)?.name ?? `#${i.initiator_id}`,
    },
    { title: t('instances.started'), key: 'started', render: (_, i) => when(i.created_at) },
    { title: t('instances.finished'), key: 'finished', render: (_, i) => when(i.finished_at) },
    {
      title: t('common.actions'),
      key: 'actions',
      render: (_, i) =>
        i.status === 'running' || i.status === 'suspended' ? (
          <Space size={0} wrap>
            {i.status === 'running' ? (
              <Button size="small" type="link" onClick={() => setReassigning(i)}>
                {t('instances.reassign')}
              </Button>
            ) : (
              <Button size="small" type="link" onClick={() => setRepairing(i)}>
                {t('stuck.repair')}
              </Button>
            )}
            <ConfirmButton
              question={t('instances.terminateQuestion', { title: i.title })}
              action={t('instances.terminate')}
              onConfirm={() => terminate(i)}
            >
              {t('instances.terminate')}
            </ConfirmButton>
          </Space>
        ) : null,
    },
  ];

  return (
    <Space direction="vertical" size="large" style={{ width: '100%' }}>
      <StuckQueue onRepair={setRepairing} />
      <AdminTable<AdminInstance>
        title={t('instances.title')}
        testId="instances-table"
        toolbar={
          <Space wrap>
            <Input.Search
              aria-label={t('instances.keyword')}
              placeholder={t('instances.keyword')}
              defaultValue={f.keyword}
              allowClear
              onSearch={(v) => list.setFilter('keyword', v.trim())}
              style={{ width: 280 }}
            />
            <Select
              aria-label={t('instances.status')}
              placeholder={t('instances.anyStatus')}
              value={status}
              allowClear
              onChange={(v?: string) => list.setFilter('status', v ?? null)}
              options={STATUSES.map((s) => ({ value: s, label: t(`status.${s}`) }))}
              style={{ width: 140 }}
            />
            <Select
              aria-label={t('instances.definition')}
              placeholder={t('instances.anyDefinition')}
              value={f.definition_key}
              allowClear
              showSearch
              optionFilterProp="label"
              loading={definitions.isPending}
              onChange={(v?: string) => list.setFilter('definition_key', v ?? null)}
              options={definitionOptions}
              style={{ width: 220 }}
            />
            <PersonPicker
              aria-label={t('instances.initiator')}
              placeholder={t('instances.anyInitiator')}
              value={initiatorId as never}
              allowClear
              onChange={
                ((v: number | undefined) => list.setFilter('initiator_id', v ?? null)) as never
              }
              style={{ width: 200 }}
            />
            <DatePicker.RangePicker
              aria-label={t('instances.range')}
              placeholder={[t('instances.rangeStart'), t('instances.rangeEnd')]}
              value={[from ? dayjs(from) : null, to ? dayjs(to).subtract(1, 'day') : null]}
              allowEmpty={[true, true]}
              onChange={(range) =>
                setRange([
                  range?.[0]?.startOf('day').toISOString() ?? null,
                  range?.[1]?.add(1, 'day').startOf('day').toISOString() ?? null,
                ])
              }
            />
            <Button onClick={() => setReassignUser(true)}>{t('instances.reassignUser')}</Button>
          </Space>
        }
        query={instances}
        columns={columns}
        rowKey="id"
        page={list.page}
        pageSize={list.page_size}
        onPage={list.setPage}
        emptyText={t('instances.empty')}
      />
      {repairing && <RepairModal instance={repairing} onClose={() => setRepairing(null)} />}
      {reassigning && (
        <ReassignTaskModal instance={reassigning} onClose={() => setReassigning(null)} />
      )}
      {reassignUser && <ReassignUserModal onClose={() => setReassignUser(false)} />}
    </Space>
  );
}
