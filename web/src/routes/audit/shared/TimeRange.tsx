import { DatePicker } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { withFilter } from '../../admin/shared/listQuery';
import { instant } from './queries';

/**
 * The list's time range as `start_time`/`end_time` (ISO 8601) in the URL, both set in one
 * navigation so a link reproduces the range and the list goes back to page 1.
 */
export function TimeRange() {
  const { t } = useTranslation('audit');
  const [params, setParams] = useSearchParams();
  const start = instant(params.get('start_time') ?? undefined);
  const end = instant(params.get('end_time') ?? undefined);
  const change = (range: [Dayjs | null, Dayjs | null] | null) => {
    const from = range?.[0]?.toISOString() ?? null;
    const to = range?.[1]?.toISOString() ?? null;
    setParams(withFilter(withFilter(params, 'start_time', from), 'end_time', to), {
      replace: true,
    });
  };
  return (
    <DatePicker.RangePicker
      aria-label={t('common.timeRange')}
      placeholder={[t('common.start'), t('common.end')]}
      showTime={{ format: 'HH:mm' }}
      format="YYYY-MM-DD HH:mm"
      allowEmpty={[true, true]}
      value={[start ? dayjs(start) : null, end ? dayjs(end) : null]}
      onChange={(range) => change(range)}
    />
  );
}
