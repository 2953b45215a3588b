import {
  CheckCircleOutlined,
  ClockCircleOutlined,
  CloseCircleOutlined,
  ExclamationCircleOutlined,
  MinusCircleOutlined,
} from '@ant-design/icons';
import { Tag, theme } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ago, periodParts, valueParts } from './format';

type Status = 'ready' | 'down' | 'ok' | 'error' | 'stale' | 'firing' | 'resolved';

const LOOKS: Record<Status, { color: string; icon: ReactNode }> = {
  ready: { color: 'success', icon: <CheckCircleOutlined /> },
  ok: { color: 'success', icon: <CheckCircleOutlined /> },
  down: { color: 'error', icon: <CloseCircleOutlined /> },
  error: { color: 'error', icon: <CloseCircleOutlined /> },
  stale: { color: 'warning', icon: <ClockCircleOutlined /> },
  firing: { color: 'error', icon: <ExclamationCircleOutlined /> },
  resolved: { color: 'default', icon: <MinusCircleOutlined /> },
};

/** A status as a word with an icon and a colour: never colour alone. */
export function StatusTag({ status }: { status: Status }) {
  const { t } = useTranslation('monitor');
  const look = LOOKS[status];
  return (
    <Tag color={look.color} icon={look.icon} data-status={status}>
      {t(`status.${status}`)}
    </Tag>
  );
}

/** The grounds a row needing attention is tinted with, in the app's theme. */
export function useRowTint() {
  const { token } = theme.useToken();
  return { error: token.colorErrorBg, warning: token.colorWarningBg };
}

/** A metric's name in i18n keys (`server.cpu_percent` → `server_cpu_percent`). */
export const metricKey = (metric: string) => metric.replace(/\./g, '_');

/** The page's recurring words: times, periods, durations, metric names and values. */
export function useWords() {
  const { t, i18n } = useTranslation('monitor');
  const language = i18n.language;
  const span = (seconds: number) => {
    const { unit, count } = periodParts(seconds);
    return t(`span.${unit}`, { count });
  };
  return {
    time: (at: string) => new Date(at).toLocaleString(language),
    ago: (at: string) => ago(at, Date.now(), language),
    /** A job's period: "every 10 s". */
    every: (seconds: number) => t('jobs.every', { span: span(seconds) }),
    /** A length of time: "5 min". */
    span,
    metric: (metric: string) => t(`metrics.${metricKey(metric)}`, { defaultValue: metric }),
    /** A metric's value in its unit: "42.5 %", "12 ms". */
    value: (metric: string, value: number) => {
      const parts = valueParts(metric, value);
      return t(`units.${parts.unit}`, { value: parts.value });
    },
  };
}
