import { Button, Card, Result, Space, Tag, Tree, Typography, type TreeProps } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  identityCalls,
  useIdentityMutation,
  useMenuTree,
  type MenuNode,
} from '../../../api/identity';
import { useAuth } from '../../../auth/AuthContext';
import { EmptyState, ErrorState, LoadingState } from '../../../components/states';
import { applyMove } from '../shared/applyMove';
import { ConfirmButton } from '../shared/ConfirmButton';
import { useMenuLabel } from '../shared/MenuTreeSelect';
import { dropPlaceOf, planMove } from '../shared/treeMove';
import { flattenTree } from '../shared/names';
import { useNotify } from '../shared/useNotify';
import { useTreeExpansion } from '../shared/useTreeExpansion';
import { MenuForm, type MenuEdit } from './MenuForm';

interface TreeEntry {
  key: number;
  title: React.ReactNode;
  children: TreeEntry[];
}

/** `/admin/menus` (platform administrators): the console's navigation tree; drag to move. */
export default function MenusPage() {
  const { t } = useTranslation('admin');
  const { me } = useAuth();
  const platform = me?.is_platform_admin ?? false;
  const menus = useMenuTree(platform);
  const label = useMenuLabel();
  const expansion = useTreeExpansion(flattenTree(menus.data ?? []).map((m) => m.id));
  const [edit, setEdit] = useState<MenuEdit | null>(null);
  const update = useIdentityMutation(identityCalls.updateMenu, ['menus']);
  const remove = useIdentityMutation(identityCalls.deleteMenu, ['menus']);
  const notify = useNotify();

  const treeData = useMemo(() => {
    const entry = (m: MenuNode): TreeEntry => ({
      key: m.id,
      children: (m.children ?? []).map(entry),
      title: (
        <Space size={4} wrap data-testid={`menu-${m.id}`}>
          <span>{label(m.name)}</span>
          <Tag>{t(`menus.kinds.${m.kind}`)}</Tag>
          {m.path && <Typography.Text code>{m.path}</Typography.Text>}
          {m.permission_code && (
            <Typography.Text type="secondary">{m.permission_code}</Typography.Text>
          )}
          {!m.visible && <Tag color="warning">{t('menus.hidden')}</Tag>}
          {m.platform_only && <Tag>{t('menus.platformOnly')}</Tag>}
          {m.kind !== 'button' && (
            <Button size="small" type="link" onClick={() => setEdit({ parentId: m.id })}>
              {t('menus.addChild')}
            </Button>
          )}
          <Button size="small" type="link" onClick={() => setEdit({ menu: m })}>
            {t('common.edit')}
          </Button>
          <ConfirmButton
            question={t('menus.deleteQuestion', { name: label(m.name) })}
            action={t('common.delete')}
            onConfirm={() =>
              notify(() => remove.mutateAsync(m.id), t('common.deleted', { name: label(m.name) }))
            }
          >
            {t('common.delete')}
          </ConfirmButton>
        </Space>
      ),
    });
    return (menus.data ?? []).map(entry);
  }, [menus.data, label, t, notify, remove]);

  if (!platform) return <Result status="403" title={t('tenants.platformOnly')} />;

  const onDrop: TreeProps['onDrop'] = (info) => {
    const place = dropPlaceOf(info.dropToGap, info.dropPosition, String(info.node.pos));
    const changes = planMove(
      menus.data ?? [],
      Number(info.dragNode.key),
      Number(info.node.key),
      place,
    );
    if (!changes) return;
    void notify(() => applyMove(changes, (v) => update.mutateAsync(v)), t('menus.moved'));
  };

  return (
    <Card
      title={t('menus.title')}
      extra={
        <Button type="primary" onClick={() => setEdit({ parentId: null })}>
          {t('menus.create')}
        </Button>
      }
    >
      {menus.isPending ? (
        <LoadingState />
      ) : menus.isError ? (
        <ErrorState error={menus.error} onRetry={() => void menus.refetch()} />
      ) : treeData.length === 0 ? (
        <EmptyState text={t('menus.empty')} />
      ) : (
        <>
          <Typography.Paragraph type="secondary">{t('menus.dragHelp')}</Typography.Paragraph>
          <Tree<TreeEntry>
            data-testid="menu-tree"
            treeData={treeData}
            expandedKeys={expansion.expandedKeys}
            onExpand={expansion.onExpand}
            draggable={{ icon: false }}
            blockNode
            selectable={false}
            onDrop={onDrop}
          />
        </>
      )}
      {edit && <MenuForm edit={edit} onClose={() => setEdit(null)} />}
    </Card>
  );
}
