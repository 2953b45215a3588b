import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { api, data } from '../../../api/client';
import type { InstanceDetail as Detail } from '../../../api/bpm';
import { useAuth } from '../../../auth/AuthContext';
import { InstanceView } from './InstanceView';
import { ErrorState, LoadingState } from '../../../components/states';

export default function InstanceDetail() {
  const id = Number(useParams().id);
  const { me } = useAuth();
  const detail = useQuery({
    queryKey: ['bpm', 'instance', id],
    queryFn: () =>
      data(api.GET('/api/v1/bpm/instances/{id}', { params: { path: { id } } })) as Promise<Detail>,
  });
  if (detail.isPending) return <LoadingState />;
  if (detail.isError)
    return <ErrorState error={detail.error} onRetry={() => void detail.refetch()} />;
  // Task actions apply to the caller's open task on this instance, if any.
  const mine = detail.data.tasks.find((t) => t.assignee_id === me?.id && t.status === 'pending');
  return (
    <InstanceView
      instance={detail.data}
      actions={detail.data.actions}
      taskId={mine?.id ?? null}
      taskNodeId={mine?.node_id ?? null}
      task={mine ?? null}
      refetch={() => void detail.refetch()}
      refreshFiles={async () => (await detail.refetch()).data?.files}
    />
  );
}
