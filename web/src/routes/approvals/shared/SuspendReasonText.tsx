import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { SuspendReason } from '../../../api/approvalsAdmin';

/**
 * A suspension's machine-readable reason in the reader's language ("Step “Finance” found nobody
 * to approve it."), naming the step by its name when the tree is known, by its id otherwise;
 * the server's own detail only as a secondary line for the administrator who digs further.
 */
export function SuspendReasonText(props: {
  reason: SuspendReason | null;
  nodeName?: string | undefined;
  withDetail?: boolean;
}) {
  const { t } = useTranslation('approvals');
  if (!props.reason) return <>-</>;
  const node = props.nodeName ?? props.reason.node_id;
  const code = props.reason.code;
  const known = code === 'empty_assignee' || code === 'condition_failed';
  return (
    <span data-testid="suspend-reason">
      {t(known ? `stuck.${code}` : 'stuck.unknown', { node })}
      {props.withDetail && props.reason.detail && (
        <Typography.Text type="secondary" style={{ display: 'block' }}>
          {t('stuck.serverDetail', { detail: props.reason.detail })}
        </Typography.Text>
      )}
    </span>
  );
}
