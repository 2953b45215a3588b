import { useParams } from 'react-router';
import { recordId, useInstance } from '../../../api/bpm';
import { useAuth } from '../../../auth/AuthContext';
import { ErrorState, LoadingState, MissingRecord } from '../../../components/states';
import { InstanceView } from './InstanceView';

/** `/instances/:id`: a request's detail; an id that cannot be one never reaches the API. */
export default function InstanceDetail() {
  const id = recordId(useParams().id);
  if (id === null) return <MissingRecord backTo="/my" />;
  return <InstanceDetailOf id={id} />;
}

function InstanceDetailOf({ id }: { id: number }) {
  const { me } = useAuth();
  const detail = useInstance(id);
  if (detail.isPending) return <LoadingState />;
  if (detail.isError)
    return <ErrorState error={detail.error} onRetry={() => void detail.refetch()} backTo="/my" />;
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
