import { Descriptions, Drawer, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useOperationLog } from '../../../api/audit';
import { ErrorState, LoadingState } from '../../../components/states';
import { prettyBody } from './body';

function Body({ label, body }: { label: string; body: string | null }) {
  const { t } = useTranslation('audit');
  const text = prettyBody(body);
  return (
    <>
      <Typography.Title level={5}>{label}</Typography.Title>
      {text === null ? (
        <Typography.Text type="secondary">{t('operations.noBody')}</Typography.Text>
      ) : (
        <pre
          style={{ maxHeight: 320, overflow: 'auto', fontSize: 12, whiteSpace: 'pre-wrap' }}
          tabIndex={0}
        >
          {text}
        </pre>
      )}
    </>
  );
}

/** One request's entry: who, what, how it ended, and its bodies as stored (secrets masked). */
export function OperationDetail({ id, onClose }: { id: number | null; onClose: () => void }) {
  const { t } = useTranslation('audit');
  const entry = useOperationLog(id);
  const log = entry.data;
  return (
    <Drawer
      open={id !== null}
      onClose={onClose}
      size={640}
      title={log ? t('operations.detailTitle', { method: log.method, path: log.path }) : ' '}
      closable={{ 'aria-label': t('common.close') }}
      destroyOnHidden
    >
      {entry.isPending && <LoadingState />}
      {entry.isError && <ErrorState error={entry.error} />}
      {log && (
        <>
          <Descriptions column={1} size="small" bordered style={{ marginBottom: 16 }}>
            <Descriptions.Item label={t('common.time')}>
              {new Date(log.created_at).toLocaleString()}
            </Descriptions.Item>
            <Descriptions.Item label={t('operations.user')}>
              {log.anonymous ? `${log.username} (${t('operations.anonymous')})` : log.username}
            </Descriptions.Item>
            <Descriptions.Item label={t('operations.module')}>{log.module}</Descriptions.Item>
            <Descriptions.Item label={t('operations.status')}>{log.status}</Descriptions.Item>
            <Descriptions.Item label={t('operations.latency')}>{log.latency_ms}</Descriptions.Item>
            <Descriptions.Item label={t('operations.ip')}>{log.ip}</Descriptions.Item>
            <Descriptions.Item label={t('operations.userAgent')}>
              {log.user_agent}
            </Descriptions.Item>
            <Descriptions.Item label={t('operations.requestId')}>
              {log.request_id}
            </Descriptions.Item>
          </Descriptions>
          <div data-testid="request-body">
            <Body label={t('operations.requestBody')} body={log.request_body} />
          </div>
          <div data-testid="response-body">
            <Body label={t('operations.responseBody')} body={log.response_body} />
          </div>
        </>
      )}
    </Drawer>
  );
}
