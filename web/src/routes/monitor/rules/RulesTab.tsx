import { Button, Space, Tag, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import {
  monitorCalls,
  useAlertRules,
  useMonitorMutation,
  type AlertRule,
} from '../../../api/monitor';
import { usePeople } from '../../../api/people';
import { useAuth } from '../../../auth/AuthContext';
import { personLabel } from '../../../form/personLabel';
import { AdminTable } from '../../admin/shared/AdminTable';
import { ConfirmButton } from '../../admin/shared/ConfirmButton';
import { useListQuery } from '../../admin/shared/listQuery';
import { useNotify } from '../../admin/shared/useNotify';
import { operatorSymbol } from '../shared/format';
import { tabLink } from '../shared/tabs';
import { useWords } from '../shared/words';
import { RuleForm } from './RuleForm';

/** The recipients of the rules on the page, by name. */
function useRecipients(rules: readonly AlertRule[]) {
  const { t } = useTranslation();
  const people = usePeople(rules.flatMap((r) => r.recipient_user_ids));
  return (ids: readonly number[]) =>
    ids.length === 0 ? '-' : ids.map((id) => personLabel(t, people, id)).join(', ');
}

/** The alert rules tab: the platform's rules, paged by the server, created and changed in a dialog. */
export default function RulesTab() {
  const { t } = useTranslation('monitor');
  const { can } = useAuth();
  const w = useWords();
  const list = useListQuery([] as const);
  const rules = useAlertRules({ page: list.page, page_size: list.page_size });
  const [editing, setEditing] = useState<AlertRule | 'new' | null>(null);
  const remove = useMonitorMutation(monitorCalls.deleteRule, ['rules', 'alerts']);
  const notify = useNotify();
  const recipients = useRecipients(rules.data?.list ?? []);

  const columns: TableColumnsType<AlertRule> = [
    { title: t('rules.name'), dataIndex: 'name', key: 'name' },
    { title: t('rules.metric'), key: 'metric', render: (_, r) => w.metric(r.metric) },
    {
      title: t('rules.service'),
      key: 'service',
      render: (_, r) => r.service ?? t('rules.platform'),
    },
    {
      title: t('rules.condition'),
      key: 'condition',
      render: (_, r) =>
        `${operatorSymbol(r.operator)} ${w.value(r.metric, r.threshold)}` +
        (r.duration_seconds > 0
          ? ` ${t('rules.heldFor', { span: w.span(r.duration_seconds) })}`
          : ''),
    },
    {
      title: t('rules.recipients'),
      key: 'recipients',
      render: (_, r) => recipients(r.recipient_user_ids),
    },
    {
      title: t('rules.enabled'),
      key: 'enabled',
      render: (_, r) => (
        <Tag color={r.enabled ? 'success' : 'default'}>
          {r.enabled ? t('rules.on') : t('rules.off')}
        </Tag>
      ),
    },
    {
      title: t('common.actions'),
      key: 'actions',
      render: (_, r) => (
        <Space size={0}>
          <Link to={tabLink('alerts', { rule_id: r.id })} style={{ padding: '0 7px' }}>
            {t('rules.alerts')}
          </Link>
          {can('monitor:alert:update') && (
            <Button size="small" type="link" onClick={() => setEditing(r)}>
              {t('common.edit')}
            </Button>
          )}
          {can('monitor:alert:delete') && (
            <ConfirmButton
              question={t('rules.deleteQuestion', { name: r.name })}
              action={t('common.delete')}
              onConfirm={() =>
                notify(() => remove.mutateAsync(r.id), t('rules.deleted', { name: r.name }))
              }
            >
              {t('common.delete')}
            </ConfirmButton>
          )}
        </Space>
      ),
    },
  ];

  return (
    <>
      <AdminTable<AlertRule>
        title={t('rules.title')}
        testId="alert-rules-table"
        toolbar={
          can('monitor:alert:create') && (
            <Button type="primary" onClick={() => setEditing('new')}>
              {t('rules.create')}
            </Button>
          )
        }
        query={rules}
        columns={columns}
        rowKey="id"
        page={list.page}
        pageSize={list.page_size}
        onPage={list.setPage}
        emptyText={t('rules.empty')}
      />
      {editing && (
        <RuleForm rule={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />
      )}
    </>
  );
}
