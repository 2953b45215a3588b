import { Drawer, Switch, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { BusinessAuditRow } from '../../../api/audit';
import { diffRecords, showValue, type ChangeKind, type FieldChange } from './diff';

const KIND_COLOR: Record<ChangeKind, string> = {
  added: 'success',
  removed: 'error',
  changed: 'processing',
  same: 'default',
};

/** A change's record before and after, field by field; unchanged fields on request. */
export function AuditDiff({ row, onClose }: { row: BusinessAuditRow | null; onClose: () => void }) {
  const { t } = useTranslation('audit');
  const [showSame, setShowSame] = useState(false);
  const all = row ? diffRecords(row.before, row.after) : [];
  const shown = showSame ? all : all.filter((f) => f.kind !== 'same');
  return (
    <Drawer
      open={row !== null}
      onClose={onClose}
      size={720}
      closable={{ 'aria-label': t('common.close') }}
      title={
        row
          ? t('business.diffTitle', {
              action: row.action,
              target: row.target_type,
              id: row.target_id,
            })
          : ' '
      }
      destroyOnHidden
    >
      {row && (
        <>
          <Typography.Paragraph>{row.summary}</Typography.Paragraph>
          {all.length === 0 ? (
            <Typography.Text type="secondary">{t('business.noSnapshot')}</Typography.Text>
          ) : (
            <>
              <label style={{ display: 'inline-flex', gap: 8, marginBottom: 12 }}>
                <Switch size="small" checked={showSame} onChange={setShowSame} />
                {t('business.showUnchanged')}
              </label>
              <Table<FieldChange>
                data-testid="audit-diff"
                size="small"
                pagination={false}
                rowKey="path"
                dataSource={shown}
                scroll={{ x: 'max-content' }}
                columns={[
                  { title: t('business.field'), dataIndex: 'path' },
                  {
                    title: t('business.diff'),
                    key: 'kind',
                    render: (_, f) => (
                      <Tag color={KIND_COLOR[f.kind]}>{t(`business.kinds.${f.kind}`)}</Tag>
                    ),
                  },
                  {
                    title: t('business.before'),
                    key: 'before',
                    render: (_, f) => (
                      <code style={{ whiteSpace: 'pre-wrap' }}>{showValue(f.before)}</code>
                    ),
                  },
                  {
                    title: t('business.after'),
                    key: 'after',
                    render: (_, f) => (
                      <code style={{ whiteSpace: 'pre-wrap' }}>{showValue(f.after)}</code>
                    ),
                  },
                ]}
              />
            </>
          )}
        </>
      )}
    </Drawer>
  );
}
