import { Descriptions, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { useTaskExplain, type StandInView } from '../../../api/bpm';
import { usePeople } from '../../../api/people';
import { personLabel } from '../../../form/personLabel';
import { ErrorState, LoadingState } from '../../../components/states';

/** Answer keys that hold one user id, shown as the person's name. */
const PERSON_KEYS = new Set([
  'assignee_id',
  'original_assignee_id',
  'delegator_id',
  'on_behalf_of_id',
]);

const isStandIn = (v: unknown): v is StandInView =>
  typeof v === 'object' && v !== null && Array.isArray((v as StandInView).chain);

/**
 * Why the caller holds this task (`GET /tasks/:id/explain`): how the step's rule resolved,
 * whether it came by transfer, delegation or add-sign, and for whom they stand in while that
 * person is out of office; people by name.
 */
export function ExplainModal({ taskId, onClose }: { taskId: number; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const explain = useTaskExplain(taskId);
  const entries = Object.entries(explain.data ?? {});
  const ids = entries.flatMap(([k, v]) => {
    if (PERSON_KEYS.has(k)) return [v];
    if (k === 'assignees' && Array.isArray(v)) return v;
    if (k === 'stand_in' && isStandIn(v)) return v.chain.flatMap((c) => [c.user_id, c.stand_in_id]);
    if (k === 'stand_ins' && Array.isArray(v))
      return v.filter(isStandIn).flatMap((x) => [x.user_id, x.stand_in_id]);
    return [];
  });
  const people = usePeople(ids);
  const name = (id: number) => personLabel(t, people, id);
  const show = (k: string, v: unknown): string => {
    if (v === null || v === undefined) return '-';
    if (PERSON_KEYS.has(k) && typeof v === 'number') return name(v);
    if (k === 'assignees' && Array.isArray(v)) return v.map((id) => name(Number(id))).join(', ');
    if (k === 'stand_in' && isStandIn(v))
      return v.chain
        .map((c) =>
          t('explain.standInLink', {
            user: name(c.user_id),
            standIn: name(c.stand_in_id),
            until: new Date(c.until).toLocaleString(i18n.language, {
              dateStyle: 'medium',
              timeStyle: 'short',
            }),
          }),
        )
        .join('; ');
    if (k === 'stand_ins' && Array.isArray(v))
      return (
        v
          .filter(isStandIn)
          .map((x) => `${name(x.user_id)} → ${name(x.stand_in_id)}`)
          .join(', ') || '-'
      );
    if (typeof v === 'boolean') return v ? t('common.yes') : t('common.no');
    return typeof v === 'object' ? JSON.stringify(v) : String(v);
  };
  return (
    <Modal open title={t('explain.title')} onCancel={onClose} footer={null}>
      {explain.isPending ? (
        <LoadingState />
      ) : explain.isError ? (
        <ErrorState error={explain.error} />
      ) : (
        <Descriptions column={1} size="small" bordered data-testid="explain-result">
          {entries.map(([k, v]) => (
            <Descriptions.Item key={k} label={t(`explain.${k}`, k)}>
              {show(k, v)}
            </Descriptions.Item>
          ))}
        </Descriptions>
      )}
    </Modal>
  );
}
