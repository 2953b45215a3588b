import { CheckCircleOutlined, CloseCircleOutlined, WarningOutlined } from '@ant-design/icons';
import { Button, Input, Space, Tag, Typography, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  monitorCalls,
  useCertificates,
  useMonitorMutation,
  type Certificate,
} from '../../../api/monitor';
import { useAuth } from '../../../auth/AuthContext';
import { AdminTable } from '../../admin/shared/AdminTable';
import { ConfirmButton } from '../../admin/shared/ConfirmButton';
import { useListQuery } from '../../admin/shared/listQuery';
import { useNotify } from '../../admin/shared/useNotify';
import { EXPIRY_WARNING_DAYS, daysLeft, expiryLevel } from '../shared/format';
import { useWords } from '../shared/words';
import { CertificateForm } from './CertificateForm';

const FILTERS = ['keyword'] as const;

/** Days left as words with an icon: expired and expiring soon stand out (never by colour alone). */
function DaysLeft({ notAfter }: { notAfter: string }) {
  const { t } = useTranslation('monitor');
  const now = Date.now();
  const level = expiryLevel(notAfter, now);
  const days = daysLeft(notAfter, now);
  if (level === 'expired') {
    return (
      <Tag color="error" icon={<CloseCircleOutlined />} data-expiry="expired">
        {t('certificates.expired')}
      </Tag>
    );
  }
  if (level === 'soon') {
    return (
      <Tag color="warning" icon={<WarningOutlined />} data-expiry="soon">
        {t('certificates.expiresSoon', { count: days })}
      </Tag>
    );
  }
  return (
    <Tag icon={<CheckCircleOutlined />} data-expiry="ok">
      {t('certificates.left', { count: days })}
    </Tag>
  );
}

/**
 * The certificates tab: the edge certificates, soonest to expire first, those within 30 days
 * highlighted; uploaded in a dialog and deleted after a confirmation naming them.
 */
export default function CertificatesTab() {
  const { t } = useTranslation('monitor');
  const { can } = useAuth();
  const w = useWords();
  const list = useListQuery(FILTERS);
  const { keyword } = list.filters;
  const certificates = useCertificates({
    page: list.page,
    page_size: list.page_size,
    ...(keyword ? { keyword } : {}),
  });
  const [uploading, setUploading] = useState(false);
  const remove = useMonitorMutation(monitorCalls.deleteCertificate, ['certificates', 'alerts']);
  const notify = useNotify();

  const columns: TableColumnsType<Certificate> = [
    {
      title: t('certificates.name'),
      key: 'name',
      render: (_, c) => (
        <Space direction="vertical" size={0}>
          <span>{c.name}</span>
          <Typography.Text type="secondary" title={c.fingerprint256} style={{ fontSize: 12 }}>
            {t('certificates.fingerprint', { value: `${c.fingerprint256.slice(0, 11)}…` })}
          </Typography.Text>
        </Space>
      ),
    },
    {
      title: t('certificates.daysLeft'),
      key: 'days',
      render: (_, c) => <DaysLeft notAfter={c.not_after} />,
    },
    { title: t('certificates.notAfter'), key: 'not_after', render: (_, c) => w.time(c.not_after) },
    {
      title: t('certificates.subject'),
      key: 'subject',
      render: (_, c) => (
        <Space direction="vertical" size={0}>
          <span>{c.subject}</span>
          {c.sans.length > 0 && (
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {c.sans.join(', ')}
            </Typography.Text>
          )}
        </Space>
      ),
    },
    { title: t('certificates.issuer'), dataIndex: 'issuer', key: 'issuer' },
    { title: t('certificates.chain'), dataIndex: 'chain_length', key: 'chain', align: 'right' },
    { title: t('certificates.createdAt'), key: 'created', render: (_, c) => w.time(c.created_at) },
    ...(can('system:cert:delete')
      ? [
          {
            title: t('common.actions'),
            key: 'actions',
            render: (_: unknown, c: Certificate) => (
              <ConfirmButton
                question={t('certificates.deleteQuestion', { name: c.name })}
                action={t('common.delete')}
                onConfirm={() =>
                  notify(
                    () => remove.mutateAsync(c.id),
                    t('certificates.deleted', { name: c.name }),
                  )
                }
              >
                {t('common.delete')}
              </ConfirmButton>
            ),
          },
        ]
      : []),
  ];

  return (
    <>
      <AdminTable<Certificate>
        title={t('certificates.title')}
        testId="certificates-table"
        toolbar={
          <Space wrap>
            <Input.Search
              key={`keyword-${keyword ?? ''}`}
              aria-label={t('certificates.keyword')}
              placeholder={t('certificates.keyword')}
              defaultValue={keyword}
              allowClear
              onSearch={(v) => list.setFilter('keyword', v.trim())}
              style={{ width: 260 }}
            />
            {can('system:cert:create') && (
              <Button type="primary" onClick={() => setUploading(true)}>
                {t('certificates.upload')}
              </Button>
            )}
            <Typography.Text type="secondary">
              {t('certificates.warningNote', { days: EXPIRY_WARNING_DAYS })}
            </Typography.Text>
          </Space>
        }
        query={certificates}
        columns={columns}
        rowKey="id"
        page={list.page}
        pageSize={list.page_size}
        onPage={list.setPage}
        emptyText={keyword ? t('certificates.noMatch') : t('certificates.empty')}
      />
      {uploading && <CertificateForm onClose={() => setUploading(false)} />}
    </>
  );
}
