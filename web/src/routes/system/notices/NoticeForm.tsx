import { DatePicker, Form, Input, Select, Switch } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import {
  systemCalls,
  useSystemMutation,
  type Notice,
  type NoticeLevel,
} from '../../../api/systemAdmin';
import { FormModal } from '../../admin/shared/FormModal';
import { LEVELS } from './noticeState';

interface Values {
  title: string;
  body: string;
  level: NoticeLevel;
  starts_at: Dayjs | null;
  ends_at: Dayjs | null;
  published: boolean;
}

const TIME_FORMAT = 'YYYY-MM-DD HH:mm';

/** Creates or edits a notice: title, text, level, the window it shows in, published or draft. */
export function NoticeForm({ notice, onClose }: { notice: Notice | null; onClose: () => void }) {
  const { t } = useTranslation('system');
  const [form] = Form.useForm<Values>();
  const create = useSystemMutation(systemCalls.createNotice, 'notices');
  const update = useSystemMutation(systemCalls.updateNotice, 'notices');
  const required = (label: string) => ({
    required: true,
    whitespace: true,
    message: t('common.required', { label }),
  });
  const endsAfterStart = async (_: unknown, ends: Dayjs | null | undefined) => {
    const starts = form.getFieldValue('starts_at') as Dayjs | null | undefined;
    if (starts && ends && !ends.isAfter(starts)) throw new Error(t('notice.endsBeforeStart'));
  };
  const save = async (values: Values) => {
    const body = {
      title: values.title,
      body: values.body ?? '',
      level: values.level,
      starts_at: values.starts_at?.toISOString() ?? null,
      ends_at: values.ends_at?.toISOString() ?? null,
      published: values.published,
    };
    if (notice) await update.mutateAsync({ id: notice.id, body });
    else await create.mutateAsync(body);
  };
  const when = (value: string | null) => (value ? dayjs(value) : null);

  return (
    <FormModal<Values>
      title={notice ? t('notice.editTitle', { title: notice.title }) : t('notice.create')}
      form={form}
      initialValues={
        notice
          ? {
              title: notice.title,
              body: notice.body,
              level: notice.level,
              starts_at: when(notice.starts_at),
              ends_at: when(notice.ends_at),
              published: notice.published,
            }
          : { body: '', level: 'info', starts_at: null, ends_at: null, published: false }
      }
      save={save}
      saving={create.isPending || update.isPending}
      onClose={onClose}
    >
      <Form.Item
        name="title"
        label={t('notice.noticeTitle')}
        rules={[required(t('notice.noticeTitle'))]}
      >
        <Input autoComplete="off" maxLength={200} />
      </Form.Item>
      <Form.Item name="body" label={t('notice.body')}>
        <Input.TextArea autoSize={{ minRows: 3, maxRows: 10 }} maxLength={20_000} />
      </Form.Item>
      <Form.Item name="level" label={t('notice.level')}>
        <Select
          aria-label={t('notice.level')}
          options={LEVELS.map((v) => ({ value: v, label: t(`notice.levels.${v}`) }))}
        />
      </Form.Item>
      <Form.Item name="starts_at" label={t('notice.startsAt')} extra={t('notice.startsAtHelp')}>
        <DatePicker showTime={{ format: 'HH:mm' }} format={TIME_FORMAT} style={{ width: '100%' }} />
      </Form.Item>
      <Form.Item
        name="ends_at"
        label={t('notice.endsAt')}
        extra={t('notice.endsAtHelp')}
        dependencies={['starts_at']}
        rules={[{ validator: endsAfterStart }]}
      >
        <DatePicker showTime={{ format: 'HH:mm' }} format={TIME_FORMAT} style={{ width: '100%' }} />
      </Form.Item>
      <Form.Item
        name="published"
        label={t('notice.published')}
        extra={t('notice.publishedHelp')}
        valuePropName="checked"
      >
        <Switch />
      </Form.Item>
    </FormModal>
  );
}
