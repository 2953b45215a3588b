import { Card, List, Statistic, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useMyOpenRequests, useOldestTodo } from '../../api/bpmLists';
import { StatusTag } from '../../components/StatusTag';
import { EmptyState, ErrorState, LoadingState } from '../../components/states';
import { useDeferredAnswer } from '../../components/deferredAnswer';
import { headingStyle } from './NoticesCard';

/** The caller's tasks: how many wait, and the one waiting longest. */
export function MyTodoCard() {
  const { t } = useTranslation();
  const todo = useDeferredAnswer(useOldestTodo(true));
  let body;
  if (todo.isPending) body = <LoadingState />;
  else if (todo.isError)
    body = <ErrorState error={todo.error} onRetry={() => void todo.refetch()} />;
  else {
    const oldest = todo.data.list[0];
    body = (
      <>
        <Statistic
          title={t('dashboard.todoCount', { count: todo.data.total })}
          value={todo.data.total}
          styles={{ content: { fontSize: 32 } }}
          data-testid="dashboard-todo-count"
        />
        {oldest ? (
          <Typography.Paragraph style={{ marginTop: 12 }} data-testid="dashboard-oldest">
            <Link to={`/tasks/${oldest.id}`}>
              {t('dashboard.oldest', {
                title: oldest.instance_title ?? oldest.node_name,
                when: new Date(oldest.created_at).toLocaleString(),
              })}
            </Link>
          </Typography.Paragraph>
        ) : (
          <Typography.Paragraph type="secondary" style={{ marginTop: 12 }}>
            {t('dashboard.nothingWaits')}
          </Typography.Paragraph>
        )}
        <Link to="/todo">{t('dashboard.openTodo')}</Link>
      </>
    );
  }
  return <Card title={<h2 style={headingStyle}>{t('dashboard.myTodo')}</h2>}>{body}</Card>;
}

/** The caller's requests still in progress, newest first. */
export function MyOpenRequestsCard() {
  const { t } = useTranslation();
  const open = useDeferredAnswer(useMyOpenRequests(true));
  let body;
  if (open.isPending) body = <LoadingState />;
  else if (open.isError)
    body = <ErrorState error={open.error} onRetry={() => void open.refetch()} />;
  else if (open.data.total === 0) body = <EmptyState text={t('dashboard.noOpen')} />;
  else
    body = (
      <List
        size="small"
        dataSource={open.data.list}
        rowKey="id"
        renderItem={(i) => (
          <List.Item extra={<StatusTag status={i.status} />}>
            <Link to={`/instances/${i.id}`}>{i.title}</Link>
          </List.Item>
        )}
      />
    );
  return (
    <Card
      title={<h2 style={headingStyle}>{t('dashboard.myOpen')}</h2>}
      extra={open.data?.total ? <Link to="/my">{open.data.total}</Link> : null}
      data-testid="dashboard-open-requests"
    >
      {body}
    </Card>
  );
}
