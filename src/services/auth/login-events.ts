import type { Logger } from 'pino';
import { newLoginEventId, type LoginEventRow } from './login-outbox.js';

/** The login log's `login_type`. */
export type LoginType = 'password' | 'totp' | 'github' | 'google' | 'oidc';

export interface RequestContext {
  ip: string;
  userAgent: string | null;
  deviceId: string | null;
  requestId: string;
}

/** Who a sign-in was for, as far as it got (a failed one may know no tenant or user). */
export interface LoginSubject {
  tenantId: number | null;
  userId: number | null;
  username: string;
}

/** What a sign-in reports for the login log. */
export interface LoginEventFacts {
  success: boolean;
  reason: string | null;
  who: LoginSubject;
  ctx: RequestContext;
  loginType: LoginType;
  at: number;
}

/** Where a failed sign-in's event is written (the outbox table; the relay publishes it). */
export type LoginEventSink = (row: LoginEventRow) => Promise<void>;

/**
 * `auth.login.success` / `auth.login.failed` as the outbox stores it and the stream carries it;
 * the event id doubles as the stream's dedup id and the login log's unique key.
 */
export function loginEventRow(e: LoginEventFacts): LoginEventRow {
  const eventId = newLoginEventId();
  const event = e.success ? 'auth.login.success' : 'auth.login.failed';
  return {
    event_id: eventId,
    event,
    payload: {
      event,
      event_id: eventId,
      tenant_id: e.who.tenantId,
      user_id: e.who.userId,
      username: e.who.username,
      login_type: e.loginType,
      success: e.success,
      reason: e.reason,
      ip: e.ctx.ip,
      user_agent: e.ctx.userAgent,
      device_id: e.ctx.deviceId,
      request_id: e.ctx.requestId,
      occurred_at: new Date(e.at).toISOString(),
    },
  };
}

/**
 * Records a sign-in's event in the outbox (a successful one goes in the session's own
 * transaction instead; see SessionRepo.createSession). Never fails the sign-in: a refusal is
 * answered even when its event cannot be written, with a warning (the database is then down,
 * and the sign-in could not have succeeded either).
 */
export async function recordLoginEvent(
  o: { loginEvents: LoginEventSink; logger: Logger },
  e: LoginEventFacts,
): Promise<void> {
  const row = loginEventRow(e);
  await o
    .loginEvents(row)
    .catch((err: Error) =>
      o.logger.warn(
        { event: row.event, event_id: row.event_id, err: err.message },
        'login event not recorded',
      ),
    );
}
