import { App, Checkbox, Form, Input, InputNumber, Radio, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  GRANT_TYPES,
  useCreateOAuthClient,
  useUpdateOAuthClient,
  type OAuthClient,
  type OAuthClientWithSecret,
} from '../../../api/oauthClients';
import { FormModal, topField } from '../../admin/shared/FormModal';
import { changeBody, createBody, valuesOf, withUriLines, type ClientValues } from './clientForm';

interface Props {
  /** The client to edit; null registers a new one. */
  client: OAuthClient | null;
  onClose: () => void;
  /** A new confidential client's answer, the one place its secret is shown. */
  onSecret: (client: OAuthClientWithSecret) => void;
}

/**
 * Registers or edits an OAuth2 client. The server's field errors land on their fields; a bad
 * redirect URI on the URIs' field, naming its line.
 */
export function ClientForm({ client, onClose, onSecret }: Props) {
  const { t } = useTranslation('systemTools');
  const { t: ta } = useTranslation('admin');
  const { message } = App.useApp();
  const [form] = Form.useForm<ClientValues>();
  const create = useCreateOAuthClient();
  const update = useUpdateOAuthClient();
  const isPublic = Form.useWatch('public', form) ?? client?.public ?? false;

  const save = async (values: ClientValues) => {
    const say = (line: number, text: string) => t('oauth.redirectLine', { line, message: text });
    try {
      if (client) {
        await update.mutateAsync({ clientId: client.client_id, body: changeBody(values) });
        void message.success(ta('common.saved'));
        return;
      }
      const created = await create.mutateAsync(createBody(values));
      // Taken out of the mutation at once: the dialog that shows it holds the only copy.
      create.reset();
      if (created.client_secret) onSecret(created);
      else void message.success(t('oauth.registeredPublic', { name: created.name }));
    } catch (error) {
      throw withUriLines(error, values.redirect_uris, say);
    }
  };

  return (
    <FormModal<ClientValues>
      title={client ? t('oauth.editTitle', { name: client.name }) : t('oauth.createTitle')}
      form={form}
      initialValues={valuesOf(client)}
      save={save}
      saving={create.isPending || update.isPending}
      onClose={onClose}
      fieldOf={topField}
    >
      <Form.Item
        name="name"
        label={t('oauth.name')}
        rules={[
          {
            required: true,
            whitespace: true,
            message: ta('common.required', { label: t('oauth.name') }),
          },
        ]}
      >
        <Input autoComplete="off" maxLength={128} />
      </Form.Item>
      <Form.Item
        name="public"
        label={t('oauth.publicLabel')}
        valuePropName="checked"
        extra={t('oauth.publicHelp')}
      >
        <Switch disabled={client !== null} />
      </Form.Item>
      <Form.Item
        name="grant_types"
        label={t('oauth.grantTypes')}
        // A validator, not `required`: antd would put aria-required on the checkbox group's box,
        // which has no role that takes it (axe).
        rules={[
          {
            validator: async (_, value?: unknown[]) => {
              if (!value || value.length === 0) throw new Error(t('oauth.grantsRequired'));
            },
          },
        ]}
      >
        <Checkbox.Group
          options={GRANT_TYPES.map((g) => ({
            value: g,
            label: t(`oauth.grant.${g}`),
            disabled: isPublic && g === 'client_credentials',
          }))}
        />
      </Form.Item>
      <Form.Item
        name="redirect_uris"
        label={t('oauth.redirectUris')}
        extra={t('oauth.redirectUrisHelp')}
      >
        <Input.TextArea
          autoSize={{ minRows: 2, maxRows: 8 }}
          spellCheck={false}
          placeholder="https://app.example.com/callback"
        />
      </Form.Item>
      <Form.Item name="access_token_format" label={t('oauth.tokenFormat')}>
        <Radio.Group
          options={[
            { value: 'opaque', label: t('oauth.opaque') },
            { value: 'jwt', label: t('oauth.jwt') },
          ]}
        />
      </Form.Item>
      <Form.Item name="token_rate_per_minute" label={t('oauth.rate')} extra={t('oauth.rateHelp')}>
        <InputNumber
          min={0}
          max={100000}
          precision={0}
          controls={false}
          style={{ width: '100%' }}
        />
      </Form.Item>
    </FormModal>
  );
}
