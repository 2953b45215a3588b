import { Space, Tag, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { timeOf } from './format';

/**
 * A table cell's text that wraps at `width` (the admin tables size columns to their content,
 * so a long text would otherwise push the actions out of sight).
 */
export function Wrapped({ width, children }: { width: number; children: ReactNode }) {
  return <div style={{ maxWidth: width, minWidth: Math.min(width, 120) }}>{children}</div>;
}

/** Whether a platform text is the shipped default or an administrator's, and since when. */
export function TextState({
  overridden,
  updatedAt,
  children,
}: {
  overridden: boolean;
  updatedAt: string | null;
  /** The changed text, when it is worth showing here. */
  children?: ReactNode;
}) {
  const { t } = useTranslation('system');
  if (!overridden) return <Tag>{t('common.default')}</Tag>;
  return (
    <Space orientation="vertical" size={2}>
      <span>
        <Tag color="warning">{t('common.custom')}</Tag>
        <Typography.Text type="secondary">{timeOf(updatedAt)}</Typography.Text>
      </span>
      {children}
    </Space>
  );
}
