import { Alert, Progress, Skeleton, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { messageOf } from '../../../api/errors';
import { formatSize, useFileUsage } from '../../../api/files';
import { usagePercent } from './usage';

/** From this share of the quota on, the bar turns to a warning and says uploads may be refused. */
const NEARLY_FULL = 90;

/** The tenant's stored bytes against its quota: a bar, or "unlimited" when it has none. */
export function StorageUsage() {
  const { t } = useTranslation('systemTools');
  const usage = useFileUsage();
  if (usage.isPending) return <Skeleton active paragraph={{ rows: 1 }} title={false} />;
  if (usage.isError) {
    return (
      <Alert
        type="warning"
        showIcon
        title={t('usage.failed', { reason: messageOf(usage.error) })}
        data-testid="storage-usage"
      />
    );
  }
  const { used_bytes: used, quota_bytes: quota } = usage.data;
  if (quota === 0) {
    return (
      <Space wrap data-testid="storage-usage">
        <Typography.Text strong>{t('usage.title')}</Typography.Text>
        <Typography.Text>{t('usage.unlimited', { used: formatSize(used) })}</Typography.Text>
        <Tag>{t('usage.unlimitedTag')}</Tag>
      </Space>
    );
  }
  const percent = usagePercent(used, quota);
  const full = percent >= NEARLY_FULL;
  return (
    <div data-testid="storage-usage">
      <Typography.Text strong>{t('usage.title')}</Typography.Text>{' '}
      <Typography.Text>
        {t('usage.used', { used: formatSize(used), quota: formatSize(quota), percent })}
      </Typography.Text>
      <Progress
        percent={percent}
        showInfo={false}
        status={full ? 'exception' : 'normal'}
        aria-label={t('usage.label')}
        aria-valuetext={t('usage.used', {
          used: formatSize(used),
          quota: formatSize(quota),
          percent,
        })}
      />
      {full && <Typography.Text type="warning">{t('usage.nearlyFull')}</Typography.Text>}
    </div>
  );
}
