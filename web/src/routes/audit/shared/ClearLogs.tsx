import { App, InputNumber, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useClearLog } from '../../../api/audit';
import { ConfirmButton } from '../../admin/shared/ConfirmButton';
import { messageOf } from '../../../api/errors';

/**
 * Clears the log's entries older than a number of days, behind a confirmation naming the log
 * and the days (0: everything up to now), and says how many went.
 */
export function ClearLogs({ kind }: { kind: 'operations' | 'logins' }) {
  const { t } = useTranslation('audit');
  const [days, setDays] = useState(30);
  const clear = useClearLog(kind);
  const { message } = App.useApp();
  const log = t(`${kind}.log`);
  return (
    <Space.Compact>
      <InputNumber
        aria-label={t('common.clearDays')}
        min={0}
        max={3650}
        precision={0}
        value={days}
        onChange={(value) => setDays(value ?? 0)}
        suffix={t('common.clearDays')}
        style={{ width: 170 }}
      />
      <ConfirmButton
        type="default"
        size="middle"
        testId={`clear-${kind}`}
        question={
          days > 0
            ? t('common.clearQuestion', { log, days })
            : t('common.clearAllQuestion', { log })
        }
        action={t('common.clearAction')}
        onConfirm={async () => {
          try {
            const { deleted } = await clear.mutateAsync(days);
            void message.success(t('common.cleared', { count: deleted }));
          } catch (error) {
            void message.error(messageOf(error));
          }
        }}
      >
        {t('common.clear')}
      </ConfirmButton>
    </Space.Compact>
  );
}
