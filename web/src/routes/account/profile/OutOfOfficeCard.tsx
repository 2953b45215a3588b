import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  App,
  Button,
  Card,
  DatePicker,
  Descriptions,
  Form,
  Input,
  Popconfirm,
  Select,
  Space,
  Switch,
  Tag,
} from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { messageOf } from '../../../api/errors';
import { useIdempotencyKey } from '../../../api/idempotency';
import {
  clearOutOfOffice,
  fetchOutOfOffice,
  outOfOfficeKey,
  saveOutOfOffice,
  type OutOfOffice,
  type SavedOutOfOffice,
} from '../../../api/outOfOffice';
import { useAuth } from '../../../auth/AuthContext';
import { PersonPicker } from '../../../form/PersonPicker';
import { showServerErrors } from '../../../form/serverErrors';
import { PersonName } from '../../../components/PersonName';
import { useStartable } from '../../../api/bpm';
import { EmptyState, ErrorState, LoadingState } from '../../../components/states';
import { absenceState, toInput, type AbsenceValues } from './outOfOfficeForm';

/**
 * My absence (`/bpm/out-of-office`): who stands in for me, from when to when, for which flows
 * (all by default), and whether my open tasks move to them too. While it holds, new tasks of
 * mine go to the stand-in, who acts on my behalf.
 */
export function OutOfOfficeCard() {
  const { t } = useTranslation();
  const absence = useQuery({ queryKey: outOfOfficeKey, queryFn: fetchOutOfOffice });
  const [editing, setEditing] = useState(false);
  const [saved, setSaved] = useState<SavedOutOfOffice | null>(null);
  const state = absence.data ? absenceState(absence.data, Date.now()) : null;
  return (
    <Card
      title={t('away.title')}
      data-testid="out-of-office"
      extra={
        state && (
          <Tag
            color={
              state === 'active' ? 'warning' : state === 'scheduled' ? 'processing' : 'default'
            }
            data-testid="out-of-office-state"
          >
            {t(`away.state.${state}`)}
          </Tag>
        )
      }
    >
      {absence.isPending ? (
        <LoadingState />
      ) : absence.isError ? (
        <ErrorState error={absence.error} onRetry={() => void absence.refetch()} />
      ) : editing ? (
        <AbsenceForm
          current={absence.data}
          onCancel={() => setEditing(false)}
          onSaved={(record) => {
            setSaved(record);
            setEditing(false);
          }}
        />
      ) : (
        <>
          {saved && (
            <Alert
              type="success"
              showIcon
              closable
              onClose={() => setSaved(null)}
              style={{ marginBottom: 12 }}
              data-testid="out-of-office-moved"
              title={t('away.moved', { count: saved.moved })}
            />
          )}
          {absence.data ? (
            <AbsenceView absence={absence.data} onEdit={() => setEditing(true)} />
          ) : (
            <Space orientation="vertical" style={{ width: '100%' }} align="center">
              <EmptyState text={t('away.none')} />
              <Button type="primary" onClick={() => setEditing(true)} data-testid="away-set">
                {t('away.set')}
              </Button>
            </Space>
          )}
        </>
      )}
    </Card>
  );
}

function AbsenceView({ absence, onEdit }: { absence: OutOfOffice; onEdit: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const startable = useStartable();
  const idempotency = useIdempotencyKey();
  const clear = useMutation({
    mutationFn: () => clearOutOfOffice(idempotency.headers()),
    onSettled: (_data, error) => idempotency.settled(error ?? undefined),
    onSuccess: async () => {
      message.success(t('away.cleared'));
      await queryClient.invalidateQueries({ queryKey: outOfOfficeKey });
    },
    onError: (err) => message.error(messageOf(err)),
  });
  const when = (v: string) => new Date(v).toLocaleString();
  const flowName = (key: string) => startable.data?.find((d) => d.key === key)?.name ?? key;
  return (
    <>
      <Descriptions column={{ xs: 1, md: 2 }} size="small" data-testid="out-of-office-view">
        <Descriptions.Item label={t('away.standIn')}>
          <span data-testid="out-of-office-stand-in">
            <PersonName id={absence.stand_in_id} />
          </span>
        </Descriptions.Item>
        <Descriptions.Item label={t('away.period')}>
          {when(absence.from)} – {when(absence.to)}
        </Descriptions.Item>
        <Descriptions.Item label={t('away.flows')}>
          {absence.definition_keys?.length
            ? absence.definition_keys.map((k) => <Tag key={k}>{flowName(k)}</Tag>)
            : t('away.allFlows')}
        </Descriptions.Item>
        <Descriptions.Item label={t('away.movePending')}>
          {absence.move_pending ? t('common.yes') : t('common.no')}
        </Descriptions.Item>
        {absence.comment && (
          <Descriptions.Item label={t('away.comment')}>{absence.comment}</Descriptions.Item>
        )}
      </Descriptions>
      <Space wrap style={{ marginTop: 12 }}>
        <Button onClick={onEdit} data-testid="away-edit">
          {t('common.edit')}
        </Button>
        <Popconfirm
          title={t('away.clearConfirm')}
          okText={t('away.clear')}
          cancelText={t('common.cancel')}
          onConfirm={() => clear.mutate()}
        >
          <Button danger loading={clear.isPending} data-testid="away-clear">
            {t('away.clear')}
          </Button>
        </Popconfirm>
      </Space>
    </>
  );
}

function AbsenceForm({
  current,
  onCancel,
  onSaved,
}: {
  current: OutOfOffice | null;
  onCancel: () => void;
  onSaved: (record: SavedOutOfOffice) => void;
}) {
  const { t } = useTranslation();
  const { me } = useAuth();
  const [form] = Form.useForm<AbsenceValues>();
  const queryClient = useQueryClient();
  const startable = useStartable();
  const [error, setError] = useState<string | null>(null);
  const idempotency = useIdempotencyKey();
  const save = useMutation({
    mutationFn: (values: AbsenceValues) => saveOutOfOffice(toInput(values), idempotency.headers()),
    onSettled: (_data, error) => idempotency.settled(error ?? undefined),
    onSuccess: async (record) => {
      queryClient.setQueryData(outOfOfficeKey, record);
      // Moved tasks change the to-do lists of both people.
      await queryClient.invalidateQueries({ queryKey: ['list'] });
      await queryClient.invalidateQueries({ queryKey: ['bpm', 'todo'] });
      onSaved(record);
    },
    // `from` and `to` are one range field here.
    onError: (err) =>
      setError(
        showServerErrors(form, err, (field) =>
          field === 'from' || field === 'to' ? ['period'] : [field],
        ),
      ),
  });
  const keys = [...new Set((startable.data ?? []).map((d) => d.key))];
  const initial: Partial<AbsenceValues> = current
    ? {
        stand_in_id: current.stand_in_id,
        period: [dayjs(current.from), dayjs(current.to)],
        definition_keys: current.definition_keys ?? [],
        move_pending: current.move_pending,
        comment: current.comment ?? '',
      }
    : {
        period: [dayjs().startOf('minute'), dayjs().add(1, 'day').endOf('day').startOf('minute')],
        definition_keys: [],
        move_pending: false,
      };
  return (
    <Form<AbsenceValues>
      form={form}
      layout="vertical"
      style={{ maxWidth: 560 }}
      initialValues={initial}
      onFinish={(v) => {
        setError(null);
        if (!save.isPending) save.mutate(v);
      }}
      data-testid="out-of-office-form"
    >
      {error && (
        <Alert role="alert" type="error" title={error} showIcon style={{ marginBottom: 12 }} />
      )}
      <Form.Item
        name="stand_in_id"
        label={t('away.standIn')}
        extra={t('away.standInHint')}
        rules={[
          { required: true, message: t('validation.required', { label: t('away.standIn') }) },
        ]}
      >
        <PersonPicker exclude={me ? [me.id] : []} />
      </Form.Item>
      <Form.Item
        name="period"
        label={t('away.period')}
        rules={[
          { required: true, message: t('validation.required', { label: t('away.period') }) },
          {
            validator: async (_, v: [Dayjs, Dayjs] | undefined) => {
              if (!v) return;
              if (!v[1].isAfter(v[0])) throw new Error(t('away.endBeforeStart'));
              if (!v[1].isAfter(dayjs())) throw new Error(t('away.endInPast'));
            },
          },
        ]}
      >
        <DatePicker.RangePicker
          showTime={{ format: 'HH:mm' }}
          format="YYYY-MM-DD HH:mm"
          style={{ width: '100%' }}
          placeholder={[t('away.from'), t('away.to')]}
          id={{ start: 'away-from', end: 'away-to' }}
        />
      </Form.Item>
      <Form.Item name="definition_keys" label={t('away.flows')} extra={t('away.flowsHint')}>
        <Select
          mode="multiple"
          allowClear
          placeholder={t('away.allFlows')}
          loading={startable.isPending}
          notFoundContent={startable.isError ? t('common.loadFailed') : undefined}
          options={keys.map((key) => ({
            value: key,
            label: startable.data?.find((d) => d.key === key)?.name ?? key,
          }))}
          showSearch={{ optionFilterProp: 'label' }}
        />
      </Form.Item>
      <Form.Item
        name="move_pending"
        label={t('away.movePending')}
        extra={t('away.movePendingHint')}
        valuePropName="checked"
      >
        <Switch data-testid="away-move" />
      </Form.Item>
      <Form.Item name="comment" label={t('away.comment')}>
        <Input.TextArea maxLength={500} autoSize={{ minRows: 2, maxRows: 5 }} />
      </Form.Item>
      <Space wrap>
        <Button type="primary" htmlType="submit" loading={save.isPending} data-testid="away-save">
          {t('common.save')}
        </Button>
        <Button onClick={onCancel}>{t('common.cancel')}</Button>
      </Space>
    </Form>
  );
}
