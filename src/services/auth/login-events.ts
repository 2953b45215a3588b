import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { publishBestEffort, type EventStream } from '../../platform/stream/stream.js';

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

/**
 * `auth.login.success` / `auth.login.failed` for the audit service's login log: best effort
 * (2 s), never blocking the sign-in; the event id doubles as the stream's dedup id.
 */
export function publishLoginEvent(
  o: { stream: EventStream; logger: Logger },
  e: {
    success: boolean;
    reason: string | null;
    who: LoginSubject;
    ctx: RequestContext;
    loginType: LoginType;
    at: number;
  },
): void {
  const eventId = randomUUID();
  const event = e.success ? 'auth.login.success' : 'auth.login.failed';
  publishBestEffort(
    o.stream,
    o.logger,
    event,
    {
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
    eventId,
  );
}
