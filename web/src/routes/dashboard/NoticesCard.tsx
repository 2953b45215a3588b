import { Alert, Card, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { useEffectiveNotices } from '../../api/system';
import { EmptyState, ErrorState, LoadingState } from '../../components/states';
import { useDeferredAnswer } from '../../components/deferredAnswer';

/** The tenant's notices in effect now, newest first, each in its level's colour. */
export function NoticesCard() {
  const { t } = useTranslation();
  const notices = useDeferredAnswer(useEffectiveNotices(true));
  let body;
  if (notices.isPending) body = <LoadingState />;
  else if (notices.isError)
    body = <ErrorState error={notices.error} onRetry={() => void notices.refetch()} />;
  else if (notices.data.length === 0) body = <EmptyState text={t('dashboard.noNotices')} />;
  else
    body = (
      <Space orientation="vertical" style={{ width: '100%' }}>
        {notices.data.map((n) => (
          <Alert
            key={n.id}
            type={n.level}
            showIcon
            title={n.title}
            description={<span style={{ whiteSpace: 'pre-line' }}>{n.body}</span>}
            data-testid={`notice-${n.id}`}
          />
        ))}
      </Space>
    );
  return <Card title={<h2 style={headingStyle}>{t('dashboard.notices')}</h2>}>{body}</Card>;
}

/** Card titles are section headings (h2), at the card title's size. */
export const headingStyle = { fontSize: 'inherit', margin: 0, fontWeight: 'inherit' } as const;
