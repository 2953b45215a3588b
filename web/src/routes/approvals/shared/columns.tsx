import { Tag } from 'antd';
import type { TFunction } from 'i18next';
import { Link } from 'react-router';
import type { AdminInstance, InstanceStatus } from '../../../api/approvalsAdmin';

const STATUS_COLOR: Record<InstanceStatus, string> = {
  running: 'processing',
  suspended: 'warning',
  approved: 'success',
  rejected: 'error',
  canceled: 'default',
  terminated: 'default',
};

/** Every instance status, in the order the filters and charts list them. */
export const STATUSES: readonly InstanceStatus[] = [
  'running',
  'suspended',
  'approved',
  'rejected',
  'canceled',
  'terminated',
];

/** An instance's status as a coloured tag in the reader's language. */
export function StatusTag({ status, t }: { status: InstanceStatus; t: TFunction<'approvals'> }) {
  return <Tag color={STATUS_COLOR[status]}>{t(`status.${status}`)}</Tag>;
}

/** The request's title linking to its detail page, which shows its diagram and timeline. */
export function InstanceLink({ instance }: { instance: AdminInstance }) {
  return <Link to={`/instances/${instance.id}`}>{instance.title}</Link>;
}

/** A time as the reader's locale writes it. */
export const when = (value: string | null) => (value ? new Date(value).toLocaleString() : '-');
