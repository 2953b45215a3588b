import { Button, Card, Space, Tree, Typography, type TreeProps } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  identityCalls,
  useDepartmentTree,
  useIdentityMutation,
  type DepartmentNode,
} from '../../../api/identity';
import { usePeople } from '../../../api/people';
import { useAuth } from '../../../auth/AuthContext';
import { EmptyState, ErrorState, LoadingState } from '../../../components/states';
import { applyMove } from '../shared/applyMove';
import { ConfirmButton } from '../shared/ConfirmButton';
import { flattenTree } from '../shared/names';
import { dropPlaceOf, planMove } from '../shared/treeMove';
import { useNotify } from '../shared/useNotify';
import { useTreeExpansion } from '../shared/useTreeExpansion';
import { DepartmentForm, type DepartmentEdit } from './DepartmentForm';

interface TreeEntry {
  key: number;
  title: React.ReactNode;
  children: TreeEntry[];
}

/** `/admin/departments`: the tenant's department tree with leaders; drag an entry to move it. */
export default function DepartmentsPage() {
  const { t } = useTranslation('admin');
  const { can } = useAuth();
  const tree = useDepartmentTree();
  const flat = useMemo(() => flattenTree(tree.data ?? []), [tree.data]);
  const leaders = usePeople(flat.map((d) => d.leader_id));
  const expansion = useTreeExpansion(flat.map((d) => d.id));
  const [edit, setEdit] = useState<DepartmentEdit | null>(null);
  const update = useIdentityMutation(identityCalls.updateDepartment, ['departments']);
  const remove = useIdentityMutation(identityCalls.deleteDepartment, ['departments']);
  const notify = useNotify();
  const mayUpdate = can('system:dept:update');

  const entry = (d: DepartmentNode): TreeEntry => ({
    key: d.id,
    children: (d.children ?? []).map(entry),
    title: (
      <Space size={4} wrap data-testid={`dept-${d.id}`}>
        <span>{d.name}</span>
        {d.leader_id && (
          <Typography.Text type="secondary">
            {t('departments.leaderIs', {
              name: leaders.byId.get(d.leader_id)?.name ?? `#${d.leader_id}`,
            })}
          </Typography.Text>
        )}
        {can('system:dept:create') && (
          <Button size="small" type="link" onClick={() => setEdit({ parentId: d.id })}>
            {t('departments.addChild')}
          </Button>
        )}
        {mayUpdate && (
          <Button size="small" type="link" onClick={() => setEdit({ dept: d })}>
            {t('common.edit')}
          </Button>
        )}
        {can('system:dept:delete') && (
          <ConfirmButton
            question={t('departments.deleteQuestion', { name: d.name })}
            action={t('common.delete')}
            onConfirm={() =>
              notify(() => remove.mutateAsync(d.id), t('common.deleted', { name: d.name }))
            }
          >
            {t('common.delete')}
          </ConfirmButton>
        )}
      </Space>
    ),
  });

  const onDrop: TreeProps['onDrop'] = (info) => {
    const place = dropPlaceOf(info.dropToGap, info.dropPosition, String(info.node.pos));
    const changes = planMove(
      tree.data ?? [],
      Number(info.dragNode.key),
      Number(info.node.key),
      place,
    );
    if (!changes) return;
    void notify(() => applyMove(changes, (v) => update.mutateAsync(v)), t('departments.moved'));
  };

  return (
    <Card
      title={t('departments.title')}
      extra={
        can('system:dept:create') && (
          <Button type="primary" onClick={() => setEdit({ parentId: null })}>
            {t('departments.create')}
          </Button>
        )
      }
    >
      {tree.isPending ? (
        <LoadingState />
      ) : tree.isError ? (
        <ErrorState error={tree.error} onRetry={() => void tree.refetch()} />
      ) : flat.length === 0 ? (
        <EmptyState text={t('departments.empty')} />
      ) : (
        <>
          {mayUpdate && (
            <Typography.Paragraph type="secondary">
              {t('departments.dragHelp')}
            </Typography.Paragraph>
          )}
          <Tree<TreeEntry>
            data-testid="dept-tree"
            treeData={(tree.data ?? []).map(entry)}
            expandedKeys={expansion.expandedKeys}
            onExpand={expansion.onExpand}
            draggable={mayUpdate ? { icon: false } : false}
            blockNode
            selectable={false}
            onDrop={onDrop}
          />
        </>
      )}
      {edit && <DepartmentForm edit={edit} onClose={() => setEdit(null)} />}
    </Card>
  );
}
