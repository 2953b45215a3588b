import { useParams } from 'react-router';
import { recordId, useTask } from '../../../api/bpm';
import { ErrorState, LoadingState, MissingRecord } from '../../../components/states';
import { InstanceView } from '../instance/InstanceView';

/** `/tasks/:id`: a task with its request; an id that cannot be one never reaches the API. */
export default function TaskDetail() {
  const id = recordId(useParams().id);
  if (id === null) return <MissingRecord backTo="/todo" />;
  return <TaskDetailOf id={id} />;
}

function TaskDetailOf({ id }: { id: number }) {
  const task = useTask(id);
  if (task.isPending) return <LoadingState />;
  if (task.isError)
    return <ErrorState error={task.error} onRetry={() => void task.refetch()} backTo="/todo" />;
  return (
    <InstanceView
      instance={task.data.instance}
      actions={task.data.actions}
      taskId={task.data.status === 'pending' ? task.data.id : null}
      taskNodeId={task.data.node_id}
      task={task.data}
      refetch={() => void task.refetch()}
      refreshFiles={async () => (await task.refetch()).data?.instance.files}
    />
  );
}
