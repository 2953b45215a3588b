import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';

const COLORS: Record<string, string> = {
  running: 'processing',
  suspended: 'warning',
  approved: 'success',
  rejected: 'error',
  canceled: 'default',
  terminated: 'default',
};

/** The instance status as text (never colour alone). */
export function StatusTag({ status }: { status: string }) {
  const { t } = useTranslation();
  return <Tag color={COLORS[status] ?? 'default'}>{t(`status.${status}`, status)}</Tag>;
}
