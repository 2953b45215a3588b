import { Form, Input, InputNumber, Select, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  identityCalls,
  useIdentityMutation,
  type MenuInput,
  type MenuNode,
} from '../../../api/identity';
import { MenuTreeSelect } from '../shared/MenuTreeSelect';
import { FormModal } from '../shared/FormModal';

/** What the form opens for: an entry to edit, or a new one under `parentId`. */
export type MenuEdit = { menu: MenuNode } | { parentId: number | null };

/** The fields a form's empty inputs leave: null, so an edit can clear them. */
function cleaned(values: MenuInput): MenuInput {
  const blank = (v: string | null | undefined) => (v ? v : null);
  return {
    ...values,
    parent_id: values.parent_id ?? null,
    path: blank(values.path),
    permission_code: blank(values.permission_code),
    icon: blank(values.icon),
  };
}

/** Creates or edits a menu entry: kind, name, route, the code it needs, icon, order, who sees it. */
export function MenuForm({ edit, onClose }: { edit: MenuEdit; onClose: () => void }) {
  const { t } = useTranslation('admin');
  const [form] = Form.useForm<MenuInput>();
  const create = useIdentityMutation(identityCalls.createMenu, ['menus']);
  const update = useIdentityMutation(identityCalls.updateMenu, ['menus']);
  const menu = 'menu' in edit ? edit.menu : null;
  const kind = Form.useWatch('kind', form);
  const save = async (values: MenuInput) => {
    if (menu) await update.mutateAsync({ id: menu.id, body: cleaned(values) });
    else await create.mutateAsync(cleaned(values));
  };
  return (
    <FormModal<MenuInput>
      title={menu ? t('menus.editTitle', { name: menu.name }) : t('menus.create')}
      form={form}
      initialValues={
        menu
          ? {
              name: menu.name,
              kind: menu.kind,
              parent_id: menu.parent_id,
              path: menu.path ?? '',
              permission_code: menu.permission_code ?? '',
              icon: menu.icon ?? '',
              sort: menu.sort,
              visible: menu.visible,
              platform_only: menu.platform_only,
            }
          : {
              kind: 'page',
              parent_id: 'parentId' in edit ? edit.parentId : null,
              sort: 0,
              visible: true,
              platform_only: false,
            }
      }
      save={save}
      saving={create.isPending || update.isPending}
      onClose={onClose}
    >
      <Form.Item name="kind" label={t('menus.kind')}>
        <Select
          aria-label={t('menus.kind')}
          options={(['directory', 'page', 'button'] as const).map((k) => ({
            value: k,
            label: t(`menus.kinds.${k}`),
          }))}
        />
      </Form.Item>
      <Form.Item
        name="name"
        label={t('menus.name')}
        extra={t('menus.nameHelp')}
        rules={[{ required: true, message: t('common.required', { label: t('menus.name') }) }]}
      >
        <Input autoComplete="off" />
      </Form.Item>
      <Form.Item name="parent_id" label={t('menus.parent')}>
        <MenuTreeSelect allowClear aria-label={t('menus.parent')} excludeId={menu?.id} />
      </Form.Item>
      {kind === 'page' && (
        <Form.Item name="path" label={t('menus.path')} extra={t('menus.pathHelp')}>
          <Input autoComplete="off" placeholder="/admin/users" />
        </Form.Item>
      )}
      <Form.Item
        name="permission_code"
        label={t('menus.permission')}
        extra={t('menus.permissionHelp')}
      >
        <Input autoComplete="off" placeholder="system:user:list" />
      </Form.Item>
      <Form.Item name="icon" label={t('menus.icon')}>
        <Input autoComplete="off" placeholder="UserOutlined" />
      </Form.Item>
      <Form.Item name="sort" label={t('menus.sort')}>
        <InputNumber style={{ width: '100%' }} />
      </Form.Item>
      <Form.Item name="visible" label={t('menus.visible')} valuePropName="checked">
        <Switch />
      </Form.Item>
      <Form.Item
        name="platform_only"
        label={t('menus.platformOnly')}
        extra={t('menus.platformOnlyHelp')}
        valuePropName="checked"
      >
        <Switch />
      </Form.Item>
    </FormModal>
  );
}
