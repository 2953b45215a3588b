import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { api, data } from '../../../api/client';
import type { ActionName, InstanceDetail, Task } from '../../../api/bpm';
import { InstanceView } from '../instance/InstanceView';
import { ErrorState, LoadingState } from '../../../components/states';

type TaskDetailData = Task & { instance: InstanceDetail; actions: ActionName[] };

export default function TaskDetail() {
  const id = Number(useParams().id);
  const task = useQuery({
    queryKey: ['bpm', 'task', id],
    queryFn: () =>
      data(
        api.GET('/api/v1/bpm/tasks/{id}', { params: { path: { id } } }),
      ) as Promise<TaskDetailData>,
  });
  if (task.isPending) return <LoadingState />;
  if (task.isError) return <ErrorState error={task.error} onRetry={() => void task.refetch()} />;
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
