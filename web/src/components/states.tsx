import { Button, Empty, Result, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ApiError, messageOf } from '../api/errors';

/** True for an answer that says the record is not there (or not the caller's to see). */
export const isMissing = (error: unknown) => error instanceof ApiError && error.status === 404;

/**
 * A load that failed. A record that does not exist offers the way back to its list (`backTo`),
 * since asking again cannot help; any other failure offers to try again.
 */
export function ErrorState({
  error,
  onRetry,
  backTo,
}: {
  error: unknown;
  onRetry?: () => void;
  /** The list this record belongs to: shown instead of "Retry" when the record is missing. */
  backTo?: string;
}) {
  const { t } = useTranslation();
  if (backTo && isMissing(error)) return <MissingRecord backTo={backTo} />;
  return (
    <Result
      status="warning"
      title={t('common.loadFailed')}
      subTitle={messageOf(error)}
      extra={onRetry && <Button onClick={onRetry}>{t('common.retry')}</Button>}
    />
  );
}

/** A record that is not there (a 404, or an address whose id cannot be one), with its list. */
export function MissingRecord({ backTo }: { backTo: string }) {
  const { t } = useTranslation();
  return (
    <Result
      status="404"
      title={t('notFound.record')}
      extra={
        <Link to={backTo}>
          <Button type="primary">{t('notFound.back')}</Button>
        </Link>
      }
    />
  );
}

/** Shown while a page's data loads. */
export function LoadingState() {
  return <Spin style={{ display: 'block', margin: '48px auto' }} />;
}

/** A list or section with nothing in it yet. */
export function EmptyState({ text }: { text?: string }) {
  const { t } = useTranslation();
  return <Empty description={text ?? t('common.empty')} />;
}
