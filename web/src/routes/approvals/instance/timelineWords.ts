import type { TimelineEntry } from '../../../api/bpm';

/** A sentence of the timeline: an i18n key under `timeline.` and what it names. */
export interface Words {
  key: string;
  params: Record<string, string | number>;
}

const idIn = (details: Record<string, unknown>, key: string): number | null => {
  const v = details[key];
  return typeof v === 'number' && Number.isInteger(v) && v > 0 ? v : null;
};

/** The people an entry's details name, for one look-up of their names. */
export function timelinePeople(entries: readonly TimelineEntry[]): number[] {
  const ids = new Set<number>();
  for (const e of entries) {
    const d = e.details ?? {};
    for (const key of ['user_id', 'stand_in_id', 'from_user_id', 'to_user_id', 'on_behalf_of_id']) {
      const id = idIn(d, key);
      if (id) ids.add(id);
    }
  }
  return [...ids];
}

/**
 * What an entry's details say, in words: who stood in for whom and until when, who a step was
 * escalated from and to (or that nobody is above), which reminder it was, that the system
 * canceled a request nobody resubmitted, and to whom a task was handed. Null: nothing to add.
 */
export function timelineWords(
  entry: TimelineEntry,
  nameOf: (id: number) => string,
  when: (value: string | number) => string,
): Words | null {
  const d = entry.details ?? {};
  const person = (key: string) => {
    const id = idIn(d, key);
    return id === null ? null : nameOf(id);
  };
  switch (entry.action) {
    case 'stand_in': {
      const user = person('user_id');
      const standIn = person('stand_in_id');
      if (!user || !standIn) return null;
      const until = d.until;
      return typeof until === 'string' || typeof until === 'number'
        ? { key: 'standIn', params: { user, standIn, until: when(until) } }
        : { key: 'standInOpen', params: { user, standIn } };
    }
    case 'escalate': {
      const from = person('from_user_id') ?? '-';
      const to = person('to_user_id');
      const level = typeof d.level === 'number' ? d.level : null;
      if (!to) return { key: 'escalateTop', params: { from } };
      // The leader it went to is away: their stand-in took it on their behalf.
      const leader = person('on_behalf_of_id');
      if (leader)
        return { key: 'escalateStandIn', params: { from, to, leader, level: level ?? '-' } };
      return level === null
        ? { key: 'escalatePlain', params: { from, to } }
        : { key: 'escalate', params: { from, to, level } };
    }
    case 'remind':
      return typeof d.count === 'number' ? { key: 'remind', params: { count: d.count } } : null;
    case 'cancel':
      // The system cancels only a request its initiator did not resubmit in time.
      return entry.operator_id === 0 ? { key: 'resubmitTimedOut', params: {} } : null;
    case 'transfer':
    case 'delegate': {
      const to = person('to_user_id');
      return to ? { key: 'handedTo', params: { to } } : null;
    }
    case 'reassign': {
      const from = person('from_user_id');
      const to = person('to_user_id');
      return from && to ? { key: 'fromTo', params: { from, to } } : null;
    }
    default:
      return null;
  }
}

/** The fixed notes the system writes as the comment of its own entries, by i18n key. */
const SYSTEM_NOTES: Record<string, string> = {
  timeout: 'timeout',
  'timeout: nobody above to escalate to': 'nobodyAbove',
  'top of the tree': 'topOfTree',
};

/**
 * A system entry's note as an i18n key under `timeline.note.` (its comment is a fixed English
 * text), or null: a person's comment, or a note the system has not been known to write.
 */
export function systemNote(entry: TimelineEntry): string | null {
  if (entry.operator_id !== 0 || !entry.comment) return null;
  return SYSTEM_NOTES[entry.comment] ?? null;
}
