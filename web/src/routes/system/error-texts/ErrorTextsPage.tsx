import { Button, Input, Select, Space, Typography, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  systemCalls,
  useErrorTexts,
  useSystemMutation,
  type ErrorText,
} from '../../../api/systemAdmin';
import { useAuth } from '../../../auth/AuthContext';
import { AdminTable } from '../../admin/shared/AdminTable';
import { ConfirmButton } from '../../admin/shared/ConfirmButton';
import { useListQuery } from '../../admin/shared/listQuery';
import { useNotify } from '../../admin/shared/useNotify';
import { matchesKeyword, pageOf } from '../shared/catalogue';
import { TextState, Wrapped } from '../shared/Wrapped';
import { ErrorTextForm } from './ErrorTextForm';

const FILTERS = ['keyword', 'overridden'] as const;

/**
 * `/system/error-texts`: every application code with the server's default text, the console's
 * own text in the reader's language, and the text an administrator set, which replaces both.
 */
export default function ErrorTextsPage() {
  const { t } = useTranslation('system');
  const { t: frame } = useTranslation();
  const { can } = useAuth();
  const list = useListQuery(FILTERS);
  const { keyword, overridden } = list.filters;
  const consoleText = (code: number) => frame(`errorCode.${code}`, { defaultValue: '' });
  const texts = useErrorTexts((all) =>
    pageOf(
      all.filter(
        (e) =>
          (overridden === undefined || String(e.overridden) === overridden) &&
          matchesKeyword(
            keyword,
            String(e.code),
            e.default_message,
            e.message,
            consoleText(e.code),
          ),
      ),
      list.page,
      list.page_size,
    ),
  );
  const [editing, setEditing] = useState<ErrorText | null>(null);
  const restore = useSystemMutation(systemCalls.restoreErrorText, 'errorTexts');
  const notify = useNotify();
  const mayChange = can('system:error-text:update');

  const columns: TableColumnsType<ErrorText> = [
    { title: t('errorTexts.code'), dataIndex: 'code', key: 'code' },
    { title: t('errorTexts.status'), dataIndex: 'http_status', key: 'http_status' },
    {
      title: t('errorTexts.defaultText'),
      key: 'default',
      render: (_, e) => (
        <Wrapped width={300}>
          <div>{consoleText(e.code) || e.default_message}</div>
          <Typography.Text type="secondary">
            {t('errorTexts.serverText', { text: e.default_message })}
          </Typography.Text>
        </Wrapped>
      ),
    },
    {
      title: t('errorTexts.message'),
      key: 'message',
      render: (_, e) => (
        <TextState overridden={e.overridden} updatedAt={e.updated_at}>
          <Wrapped width={260}>
            <Typography.Text strong>{e.message}</Typography.Text>
          </Wrapped>
        </TextState>
      ),
    },
  ];
  if (mayChange) {
    columns.push({
      title: t('common.actions'),
      key: 'actions',
      render: (_, e) => (
        <Space size={0}>
          <Button size="small" type="link" onClick={() => setEditing(e)}>
            {t('common.edit')}
          </Button>
          {e.overridden && (
            <ConfirmButton
              question={t('errorTexts.restoreQuestion', {
                code: e.code,
                text: consoleText(e.code) || e.default_message,
              })}
              action={t('common.restore')}
              onConfirm={() =>
                notify(
                  () => restore.mutateAsync(e.code),
                  t('common.restored', { name: t('errorTexts.name', { code: e.code }) }),
                )
              }
              testId={`restore-${e.code}`}
            >
              {t('common.restore')}
            </ConfirmButton>
          )}
        </Space>
      ),
    });
  }

  return (
    <>
      <AdminTable<ErrorText>
        title={t('errorTexts.title')}
        testId="error-texts-table"
        toolbar={
          <>
            <Typography.Paragraph type="secondary">{t('errorTexts.intro')}</Typography.Paragraph>
            <Space wrap>
              <Input.Search
                aria-label={t('errorTexts.keyword')}
                placeholder={t('errorTexts.keyword')}
                defaultValue={keyword}
                allowClear
                onSearch={(v) => list.setFilter('keyword', v.trim())}
                style={{ width: 240 }}
              />
              <Select
                aria-label={t('errorTexts.message')}
                placeholder={t('common.anyState')}
                value={overridden === 'true' || overridden === 'false' ? overridden : undefined}
                allowClear
                onChange={(v?: string) => list.setFilter('overridden', v ?? null)}
                options={[
                  { value: 'true', label: t('common.onlyCustom') },
                  { value: 'false', label: t('common.onlyDefault') },
                ]}
                style={{ width: 160 }}
              />
            </Space>
          </>
        }
        query={texts}
        columns={columns}
        rowKey="code"
        page={list.page}
        pageSize={list.page_size}
        onPage={list.setPage}
        emptyText={t('errorTexts.empty')}
      />
      {editing && (
        <ErrorTextForm
          entry={editing}
          consoleText={consoleText(editing.code)}
          onClose={() => setEditing(null)}
        />
      )}
    </>
  );
}
