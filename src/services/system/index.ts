/**
 * The system service's public face. Needs nothing from others. Serves: the editable error
 * texts, notices (and the effective ones every user reads), tenant settings and dictionaries,
 * each user's inbox, the notification templates, the edge certificates, and (on its own port
 * only) the in-container SMS entry `POST /internal/sms/send`; readiness at `/health/ready`,
 * metrics. No jobs. Provides, fitted to other modules' ports in src/start.ts: `systemInbox`
 * (puts notices in users' inboxes), `systemTemplates` (the current text of what the platform
 * sends) and `systemCertificates` (which certificates expire soon).
 */
import type { Kernel } from '../../platform/kernel.js';
import type { ServiceModule } from '../../platform/module.js';
import { certificatesExpiringWithin } from './certificates/certificates.service.js';
import { deliverToInbox } from './inbox/inbox.service.js';
import { buildSystemApp } from './system.app.js';
import { SYSTEM_PERMISSIONS } from './system.permissions.js';
import type { SystemPorts } from './system.ports.js';
import type { SystemTables } from './system.tables.js';
import type { TemplateText } from './templates/template-catalogue.js';
import { renderTemplate } from './templates/templates.service.js';
import { systemSettings } from './system.settings.js';

export type { SystemPorts } from './system.ports.js';

export const systemModule: ServiceModule<SystemPorts, 'system'> = {
  name: 'system',
  settings: systemSettings,
  permissions: SYSTEM_PERMISSIONS,
  defaultPort: 8106,
  routes: [
    { prefix: '/api/v1/system' },
    { prefix: '/api/v1/notices' },
    { prefix: '/api/v1/inbox' },
  ],
  jobs: [],
  async create(kernel, ports) {
    return { app: await buildSystemApp(kernel, ports), jobs: [] };
  },
};

export interface InboxDelivery {
  /** Puts one notice in each listed user's inbox (users of that tenant). */
  deliver(notice: {
    tenantId: number;
    userIds: readonly number[];
    category: string;
    title: string;
    body: string;
    link: string | null;
  }): Promise<void>;
}

/** The inbox adapter, over the kernel's database (any process may run it). */
export function systemInbox(kernel: Kernel): InboxDelivery {
  const db = kernel.database.db.withTables<SystemTables>();
  return { deliver: (notice) => deliverToInbox(db, notice) };
}

export interface TemplateRenderer {
  /**
   * The current text of template `key` (e.g. `bpm.todo`, `auth.password_reset`) in
   * TEMPLATE_LANGUAGE, its `{{placeholders}}` filled from `params`.
   */
  render(key: string, params: Readonly<Record<string, string | number>>): Promise<TemplateText>;
}

/** The templates adapter: reads the edited text at each call, so senders use the current one. */
export function systemTemplates(kernel: Kernel): TemplateRenderer {
  const db = kernel.database.db.withTables<SystemTables>();
  const lang = kernel.settings.system.templateLanguage;
  return { render: (key, params) => renderTemplate(db, key, lang, params) };
}

export interface CertificateExpiry {
  /** Certificates whose `not_after` falls within `days` from now, or has passed; soonest first. */
  expiringWithin(
    days: number,
  ): Promise<{ id: number; name: string; subject: string; not_after: string }[]>;
}

/** The certificates adapter (the monitor warns 30 days ahead). */
export function systemCertificates(kernel: Kernel): CertificateExpiry {
  const db = kernel.database.db.withTables<SystemTables>();
  return { expiringWithin: (days) => certificatesExpiringWithin(db, days) };
}
