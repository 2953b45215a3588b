import { App, Button, Space, Tag, Typography, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { messageOf } from '../../../api/errors';
import {
  useDeleteOAuthClient,
  useOAuthClients,
  useRotateOAuthSecret,
  type OAuthClient,
  type OAuthClientWithSecret,
} from '../../../api/oauthClients';
import { AdminTable } from '../../admin/shared/AdminTable';
import { ConfirmButton } from '../../admin/shared/ConfirmButton';
import { useListQuery } from '../../admin/shared/listQuery';
import { useNotify } from '../../admin/shared/useNotify';
import { ClientForm } from './ClientForm';
import { SecretModal } from './SecretModal';

const FILTERS = [] as const;
const mono = { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace' };

/**
 * `/system/oauth-clients` (platform administrators): the clients that may use the platform's
 * OAuth2 server. Register, edit, delete, and rotate a secret; a new secret is shown once.
 */
export default function OAuthClientsPage() {
  const { t } = useTranslation('systemTools');
  const { t: ta } = useTranslation('admin');
  const list = useListQuery(FILTERS);
  const clients = useOAuthClients({ page: list.page, page_size: list.page_size });
  const [editing, setEditing] = useState<OAuthClient | 'new' | null>(null);
  // The one copy of a new secret: in this state while its dialog is open, nowhere else.
  const [secret, setSecret] = useState<OAuthClientWithSecret | null>(null);
  const rotate = useRotateOAuthSecret();
  const remove = useDeleteOAuthClient();
  const notify = useNotify();
  const { message } = App.useApp();

  const rotateSecret = async (c: OAuthClient) => {
    try {
      const rotated = await rotate.mutateAsync(c.client_id);
      setSecret(rotated);
    } catch (error) {
      void message.error(messageOf(error));
    } finally {
      // The new secret stays in this page's state only, not in the mutation.
      rotate.reset();
    }
  };

  const columns: TableColumnsType<OAuthClient> = [
    { title: t('oauth.name'), dataIndex: 'name', key: 'name' },
    {
      title: t('oauth.clientId'),
      key: 'client_id',
      render: (_, c) => <Typography.Text style={mono}>{c.client_id}</Typography.Text>,
    },
    {
      title: t('oauth.kind'),
      key: 'kind',
      render: (_, c) => (c.public ? t('oauth.public') : t('oauth.confidential')),
    },
    {
      title: t('oauth.grantTypes'),
      key: 'grant_types',
      render: (_, c) => (
        <Space size={[0, 4]} wrap>
          {c.grant_types.map((g) => (
            <Tag key={g}>{t(`oauth.grant.${g}`, { defaultValue: g })}</Tag>
          ))}
        </Space>
      ),
    },
    {
      title: t('oauth.redirectUris'),
      key: 'redirect_uris',
      render: (_, c) => (
        <div style={{ maxWidth: 280 }}>
          {c.redirect_uris.map((u) => (
            <Typography.Text key={u} style={{ ...mono, display: 'block', wordBreak: 'break-all' }}>
              {u}
            </Typography.Text>
          ))}
        </div>
      ),
    },
    {
      title: t('oauth.tokenFormat'),
      key: 'format',
      render: (_, c) => t(`oauth.${c.access_token_format}`),
    },
    {
      title: t('common.created'),
      key: 'created_at',
      render: (_, c) => new Date(c.created_at).toLocaleString(),
    },
    {
      title: t('common.actions'),
      key: 'actions',
      render: (_, c) => (
        <Space size={0} wrap>
          <Button size="small" type="link" onClick={() => setEditing(c)}>
            {ta('common.edit')}
          </Button>
          {!c.public && (
            <ConfirmButton
              question={t('oauth.rotateQuestion', { name: c.name })}
              action={t('oauth.rotateAction')}
              onConfirm={() => rotateSecret(c)}
              danger={false}
            >
              {t('oauth.rotate')}
            </ConfirmButton>
          )}
          <ConfirmButton
            question={t('oauth.deleteQuestion', { name: c.name })}
            action={ta('common.delete')}
            onConfirm={() =>
              notify(() => remove.mutateAsync(c.client_id), t('oauth.deleted', { name: c.name }))
            }
          >
            {ta('common.delete')}
          </ConfirmButton>
        </Space>
      ),
    },
  ];

  return (
    <>
      <AdminTable<OAuthClient>
        title={t('oauth.title')}
        testId="oauth-clients-table"
        toolbar={
          <Button type="primary" onClick={() => setEditing('new')}>
            {t('oauth.create')}
          </Button>
        }
        query={clients}
        columns={columns}
        rowKey="id"
        page={list.page}
        pageSize={list.page_size}
        onPage={list.setPage}
        emptyText={t('oauth.empty')}
      />
      {editing && (
        <ClientForm
          client={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSecret={setSecret}
        />
      )}
      {secret && <SecretModal client={secret} onClose={() => setSecret(null)} />}
    </>
  );
}
