import { Space, Timeline as AntTimeline, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { TimelineEntry } from '../../../api/bpm';
import { usePeople } from '../../../api/people';
import { personLabel } from '../../../form/personLabel';
import { systemNote, timelinePeople, timelineWords } from './timelineWords';

/**
 * The request's process log, oldest first: what was done, on which step, by whom, with the
 * comment; entries about people (stand-ins, escalations, hand-overs) and the system's timeouts
 * say so in words, with names.
 */
export function Timeline({ entries }: { entries: TimelineEntry[] }) {
  const { t, i18n } = useTranslation();
  const people = usePeople(timelinePeople(entries));
  const nameOf = (id: number) => personLabel(t, people, id);
  const when = (value: string | number) =>
    new Date(value).toLocaleString(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
  return (
    <AntTimeline
      data-testid="timeline"
      items={entries.map((e) => {
        const words = timelineWords(e, nameOf, when);
        const note = systemNote(e);
        return {
          key: e.id,
          content: (
            <Space orientation="vertical" size={0}>
              <span>
                <strong>{t(`log.${e.action}`, e.action)}</strong>
                {e.node_name ? ` · ${e.node_name}` : ''} ·{' '}
                {e.operator_id === 0 ? t('people.system') : e.operator_name}
              </span>
              {words && (
                <Typography.Text data-testid={`timeline-${e.action}`}>
                  {t(`timeline.${words.key}`, words.params)}
                </Typography.Text>
              )}
              {note
                ? // "Top of the tree" is what the words above already say.
                  note !== 'topOfTree' && (
                    <Typography.Text type="secondary">{t(`timeline.note.${note}`)}</Typography.Text>
                  )
                : e.comment && <Typography.Text>“{e.comment}”</Typography.Text>}
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {new Date(e.created_at).toLocaleString()}
              </Typography.Text>
            </Space>
          ),
        };
      })}
    />
  );
}
