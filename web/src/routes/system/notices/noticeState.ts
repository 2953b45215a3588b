/**
 * Whether a notice is shown now: a draft never is; a published one while its window holds
 * (`starts_at` inclusive, `ends_at` exclusive, either side open when null), as the server's
 * `GET /notices/effective` decides.
 */
import type { Notice, NoticeLevel } from '../../../api/systemAdmin';

export type NoticeState = 'draft' | 'scheduled' | 'effective' | 'ended';

export function noticeState(
  notice: Pick<Notice, 'published' | 'starts_at' | 'ends_at'>,
  now: Date = new Date(),
): NoticeState {
  if (!notice.published) return 'draft';
  const at = now.getTime();
  if (notice.starts_at && Date.parse(notice.starts_at) > at) return 'scheduled';
  if (notice.ends_at && Date.parse(notice.ends_at) <= at) return 'ended';
  return 'effective';
}

/** The tag colour of each state. */
export const STATE_COLOURS: Record<NoticeState, string> = {
  draft: 'default',
  scheduled: 'processing',
  effective: 'success',
  ended: 'default',
};

export const LEVELS: readonly NoticeLevel[] = ['info', 'success', 'warning', 'error'];

/** The tag colour of each level, as the dashboard's alerts colour them. */
export const LEVEL_COLOURS: Record<NoticeLevel, string> = {
  info: 'processing',
  success: 'success',
  warning: 'warning',
  error: 'error',
};
