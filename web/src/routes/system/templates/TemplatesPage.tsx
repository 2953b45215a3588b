import { Button, Input, Select, Space, Typography, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  systemCalls,
  useSystemMutation,
  useTemplates,
  type Template,
} from '../../../api/systemAdmin';
import { useAuth } from '../../../auth/AuthContext';
import { AdminTable } from '../../admin/shared/AdminTable';
import { ConfirmButton } from '../../admin/shared/ConfirmButton';
import { useListQuery } from '../../admin/shared/listQuery';
import { useNotify } from '../../admin/shared/useNotify';
import { matchesKeyword, pageOf } from '../shared/catalogue';
import { TextState, Wrapped } from '../shared/Wrapped';
import { placeholderOf } from './placeholders';
import { TemplateForm } from './TemplateForm';
import { useTemplateWords } from './useTemplateWords';

const FILTERS = ['keyword', 'lang'] as const;
const LANGS = ['zh-CN', 'en-US'] as const;

/** A template with a row key of its own (a key has one entry per language). */
type Row = Template & { id: string };

/** `/system/templates`: the notices and mails the platform sends, per key and language. */
export default function TemplatesPage() {
  const { t } = useTranslation('system');
  const { can } = useAuth();
  const words = useTemplateWords();
  const list = useListQuery(FILTERS);
  const { keyword, lang } = list.filters;
  const templates = useTemplates((all) =>
    pageOf(
      all
        .filter(
          (e) =>
            (lang === undefined || e.lang === lang) &&
            matchesKeyword(keyword, e.key, e.title, words.about(e)),
        )
        .map((e): Row => ({ ...e, id: `${e.key}/${e.lang}` })),
      list.page,
      list.page_size,
    ),
  );

  const [editing, setEditing] = useState<Template | null>(null);
  const restore = useSystemMutation(systemCalls.restoreTemplate, 'templates');
  const notify = useNotify();
  const mayChange = can('system:template:update');

  const columns: TableColumnsType<Row> = [
    {
      title: t('templates.key'),
      key: 'key',
      render: (_, e) => (
        <Wrapped width={240}>
          <Typography.Text code>{e.key}</Typography.Text>
          <div>
            <Typography.Text type="secondary">{words.about(e)}</Typography.Text>
          </div>
        </Wrapped>
      ),
    },
    { title: t('templates.lang'), key: 'lang', render: (_, e) => words.lang(e.lang) },
    {
      title: t('templates.titleField'),
      key: 'title',
      render: (_, e) => <Wrapped width={220}>{e.title}</Wrapped>,
    },
    {
      title: t('templates.placeholders'),
      key: 'placeholders',
      render: (_, e) => (
        <Space orientation="vertical" size={2}>
          {e.placeholders.map((p) => (
            <Typography.Text key={p} code>
              {placeholderOf(p)}
            </Typography.Text>
          ))}
        </Space>
      ),
    },
    {
      title: t('templates.state'),
      key: 'state',
      render: (_, e) => <TextState overridden={e.overridden} updatedAt={e.updated_at} />,
    },
  ];
  if (mayChange) {
    columns.push({
      title: t('common.actions'),
      key: 'actions',
      render: (_, e) => {
        const name = words.name(e);
        return (
          <Space size={0}>
            <Button size="small" type="link" onClick={() => setEditing(e)}>
              {t('common.edit')}
            </Button>
            {e.overridden && (
              <ConfirmButton
                question={t('templates.restoreQuestion', { key: e.key, lang: words.lang(e.lang) })}
                action={t('common.restore')}
                onConfirm={() =>
                  notify(() => restore.mutateAsync(e), t('common.restored', { name }))
                }
                testId={`restore-${e.key}-${e.lang}`}
              >
                {t('common.restore')}
              </ConfirmButton>
            )}
          </Space>
        );
      },
    });
  }

  return (
    <>
      <AdminTable<Row>
        title={t('templates.title')}
        testId="templates-table"
        toolbar={
          <>
            <Typography.Paragraph type="secondary">{t('templates.intro')}</Typography.Paragraph>
            <Space wrap>
              <Input.Search
                aria-label={t('templates.keyword')}
                placeholder={t('templates.keyword')}
                defaultValue={keyword}
                allowClear
                onSearch={(v) => list.setFilter('keyword', v.trim())}
                style={{ width: 240 }}
              />
              <Select
                aria-label={t('templates.lang')}
                placeholder={t('templates.anyLang')}
                value={lang === 'zh-CN' || lang === 'en-US' ? lang : undefined}
                allowClear
                onChange={(v?: string) => list.setFilter('lang', v ?? null)}
                options={LANGS.map((v) => ({ value: v, label: words.lang(v) }))}
                style={{ width: 180 }}
              />
            </Space>
          </>
        }
        query={templates}
        columns={columns}
        rowKey="id"
        page={list.page}
        pageSize={list.page_size}
        onPage={list.setPage}
        emptyText={t('templates.empty')}
      />
      {editing && <TemplateForm template={editing} onClose={() => setEditing(null)} />}
    </>
  );
}
