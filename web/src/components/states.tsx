import { Button, Empty, Result, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { messageOf } from '../api/errors';

export function ErrorState({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  const { t } = useTranslation();
  return (
    <Result
      status="warning"
      title={t('common.loadFailed')}
      subTitle={messageOf(error)}
      extra={onRetry && <Button onClick={onRetry}>{t('common.retry')}</Button>}
    />
  );
}

export function LoadingState() {
  return <Spin style={{ display: 'block', margin: '48px auto' }} />;
}

export function EmptyState({ text }: { text?: string }) {
  const { t } = useTranslation();
  return <Empty description={text ?? t('common.empty')} />;
}
