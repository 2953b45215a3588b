import { Alert, Button, Descriptions, Modal, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { OAuthClientWithSecret } from '../../../api/oauthClients';
import { CopyButton } from '../../admin/shared/CopyButton';

const mono = { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace' };

/**
 * A client's new secret, shown once (after a create or a rotation) with a copy button and the
 * warning that it cannot be shown again. Closing it drops the only copy the console had.
 */
export function SecretModal({
  client,
  onClose,
}: {
  client: OAuthClientWithSecret;
  onClose: () => void;
}) {
  const { t } = useTranslation('systemTools');
  const secret = client.client_secret ?? '';
  return (
    <Modal
      open
      title={t('secret.title', { name: client.name })}
      onCancel={onClose}
      // Not closed by a stray click beside it: the secret would be gone.
      mask={{ closable: false }}
      keyboard={false}
      destroyOnHidden
      footer={
        <Button type="primary" onClick={onClose} data-testid="secret-done">
          {t('secret.done')}
        </Button>
      }
    >
      <Alert
        type="warning"
        showIcon
        title={t('secret.warning')}
        description={t('secret.text')}
        style={{ marginBottom: 16 }}
      />
      <Descriptions column={1} size="small" bordered>
        <Descriptions.Item label={t('secret.clientId')}>
          <Space wrap>
            <Typography.Text style={mono} data-testid="secret-client-id">
              {client.client_id}
            </Typography.Text>
            <CopyButton text={client.client_id} label={t('secret.copyId')} size="small" />
          </Space>
        </Descriptions.Item>
        <Descriptions.Item label={t('secret.secret')}>
          <Space wrap>
            <Typography.Text
              style={{ ...mono, wordBreak: 'break-all' }}
              data-testid="client-secret"
            >
              {secret}
            </Typography.Text>
            <CopyButton
              text={secret}
              label={t('secret.copySecret')}
              size="small"
              testId="copy-secret"
            />
          </Space>
        </Descriptions.Item>
      </Descriptions>
    </Modal>
  );
}
