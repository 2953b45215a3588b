/**
 * What the audit service needs from others, fitted in src/start.ts: never their tables. Both
 * are optional; without them the new-device notice goes to NOTIFY_API_BASE alone, in its
 * built-in text.
 */
export interface AuditPorts {
  /** Puts the new-device notice in the user's in-app inbox (the system service's). */
  inbox?: {
    deliver(notice: {
      tenantId: number;
      userIds: readonly number[];
      category: string;
      title: string;
      body: string;
      link: string | null;
    }): Promise<void>;
  };
  /** The current text of a template (`security.new_device`) filled with `params`. */
  renderText?(
    key: string,
    params: Readonly<Record<string, string | number>>,
  ): Promise<{ title: string; body: string }>;
}
