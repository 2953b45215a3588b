import { randomUUID } from 'node:crypto';
import { sql, type QueryExecutorProvider } from 'kysely';
import type { NewLoginLog } from './login-logs.repo.js';

/** Where new-device notices go: the notification API (NOTIFY_API_BASE), the in-app inbox. */
export interface NoticeChannels {
  notify: boolean;
  inbox: boolean;
}

export const NO_NOTICES: NoticeChannels = { notify: false, inbox: false };

/** A login log just stored: the notice needs whose sign-in it was and from where. */
type StoredLog = NewLoginLog & { new_device?: boolean | undefined };

/** The notice's text (the notification API's `title` and `body`, as BPM's notices carry). */
function noticeText(log: StoredLog) {
  const from = [log.browser, log.os && `on ${log.os}`, log.location && `(${log.location})`]
    .filter(Boolean)
    .join(' ');
  return {
    title: 'New sign-in to your account',
    body:
      `Your account was signed in from a new device${from ? `: ${from}` : ''}` +
      `${log.ip ? `, address ${log.ip}` : ''}. If this was not you, change your password and ` +
      'sign that session out.',
  };
}

/**
 * Enqueues a `new_device` notice for each successful sign-in among `stored` whose device the
 * user had not used before, inside the caller's transaction (the one storing the login logs):
 * a retried batch stores no log twice, so no notice is enqueued twice.
 */
export async function enqueueNewDeviceNotices(
  trx: QueryExecutorProvider,
  stored: StoredLog[],
  channels: NoticeChannels,
) {
  const kinds = [
    ...(channels.notify ? ['notification'] : []),
    ...(channels.inbox ? ['inbox'] : []),
  ];
  const notices = stored
    .filter(
      (log) =>
        log.success && log.new_device === true && log.user_id !== null && log.tenant_id !== null,
    )
    .flatMap((log) => kinds.map((kind) => ({ log, kind })))
    .map(({ log, kind }) => {
      const eventId = randomUUID();
      return {
        tenant_id: log.tenant_id!,
        kind,
        event_id: eventId,
        target: 'new_device',
        payload: {
          event_id: eventId,
          kind: 'new_device',
          tenant_id: log.tenant_id,
          user_ids: [log.user_id],
          login_event_id: log.event_id,
          session_id: log.session_id ?? null,
          device_id: log.device_id,
          device: log.device ?? null,
          os: log.os ?? null,
          browser: log.browser ?? null,
          ip: log.ip ?? null,
          location: log.location ?? null,
          occurred_at: log.created_at ?? null,
          ...noticeText(log),
        },
      };
    });
  if (notices.length === 0) return;
  await sql`
    INSERT INTO audit_notify_outbox (tenant_id, kind, event_id, target, payload)
    SELECT * FROM json_to_recordset(${JSON.stringify(notices)}::json)
      AS r(tenant_id bigint, kind text, event_id uuid, target text, payload jsonb)`.execute(trx);
}
