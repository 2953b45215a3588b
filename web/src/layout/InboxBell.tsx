import { BellOutlined } from '@ant-design/icons';
import { Badge, Button, Drawer, List, Pagination, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useInbox, useInboxUnread, useMarkInboxRead, type InboxNotice } from '../api/system';
import { EmptyState, ErrorState, LoadingState } from '../components/states';

/**
 * The header's bell: the caller's unread notices (the system service's inbox), and a drawer
 * listing them, newest first, each marked read when opened or on request.
 */
export function InboxBell({ enabled }: { enabled: boolean }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const unread = useInboxUnread(enabled);
  const count = unread.data ?? 0;
  return (
    <>
      <Badge count={count} size="small" offset={[-2, 2]}>
        <Button
          size="small"
          icon={<BellOutlined />}
          aria-label={count ? t('inbox.bellUnread', { count }) : t('inbox.bell')}
          onClick={() => setOpen(true)}
          disabled={!enabled}
          data-testid="inbox-bell"
        />
      </Badge>
      <Drawer
        open={open}
        onClose={() => setOpen(false)}
        title={t('inbox.title')}
        size={380}
        destroyOnHidden
      >
        {open && <InboxList onLeave={() => setOpen(false)} />}
      </Drawer>
    </>
  );
}

function InboxList({ onLeave }: { onLeave: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [page, setPage] = useState(1);
  const inbox = useInbox(page, true);
  const mark = useMarkInboxRead();
  if (inbox.isPending) return <LoadingState />;
  if (inbox.isError) return <ErrorState error={inbox.error} onRetry={() => void inbox.refetch()} />;
  if (inbox.data.total === 0) return <EmptyState text={t('inbox.empty')} />;
  const openNotice = (notice: InboxNotice) => {
    if (!notice.read_at) mark.mutate(notice.id);
    if (notice.link) {
      onLeave();
      void navigate(notice.link);
    }
  };
  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      <Button size="small" onClick={() => mark.mutate('all')} loading={mark.isPending}>
        {t('inbox.markAllRead')}
      </Button>
      <List
        dataSource={inbox.data.list}
        rowKey="id"
        renderItem={(notice) => (
          <List.Item
            data-testid={`inbox-notice-${notice.id}`}
            actions={[
              notice.link ? (
                <Button key="open" type="link" size="small" onClick={() => openNotice(notice)}>
                  {t('inbox.open')}
                </Button>
              ) : null,
              notice.read_at ? null : (
                <Button key="read" size="small" onClick={() => mark.mutate(notice.id)}>
                  {t('inbox.markRead')}
                </Button>
              ),
            ].filter(Boolean)}
          >
            <List.Item.Meta
              title={
                <Space size={4} wrap>
                  {notice.read_at ? null : <Tag color="processing">{t('inbox.unread')}</Tag>}
                  <Typography.Text strong={!notice.read_at}>{notice.title}</Typography.Text>
                </Space>
              }
              description={
                <>
                  <div>{notice.body}</div>
                  <Typography.Text type="secondary">
                    {new Date(notice.created_at).toLocaleString()}
                  </Typography.Text>
                </>
              }
            />
          </List.Item>
        )}
      />
      {inbox.data.total > 10 && (
        <Pagination
          size="small"
          current={page}
          pageSize={10}
          total={inbox.data.total}
          onChange={setPage}
          showSizeChanger={false}
        />
      )}
    </Space>
  );
}
