import { sql } from 'kysely';
import { trustGatewayHeaders } from '../../platform/auth/guard.js';
import { registerReadiness } from '../../platform/http/health.js';
import type { HttpApp } from '../../platform/http/server.js';
import { createServiceApp } from '../../platform/http/service-app.js';
import type { Kernel } from '../../platform/kernel.js';
import { registerErrorTextRoutes } from './error-texts/error-texts.routes.js';
import { ErrorTextsService } from './error-texts/error-texts.service.js';
import { registerCertificateRoutes } from './certificates/certificates.routes.js';
import { CertificatesService } from './certificates/certificates.service.js';
import { KeySealer } from './certificates/key-sealing.js';
import { registerSmsRoutes } from './sms/sms.routes.js';
import { SmsService } from './sms/sms.service.js';
import { registerDictRoutes } from './dicts/dicts.routes.js';
import { DictsService } from './dicts/dicts.service.js';
import { registerSettingRoutes } from './settings/settings.routes.js';
import { SettingsService } from './settings/settings.service.js';
import { registerInboxRoutes } from './inbox/inbox.routes.js';
import { InboxService } from './inbox/inbox.service.js';
import { registerTemplateRoutes } from './templates/templates.routes.js';
import { TemplatesService } from './templates/templates.service.js';
import { registerNoticeRoutes } from './notices/notices.routes.js';
import { NoticesService } from './notices/notices.service.js';
import type { SystemPorts } from './system.ports.js';
import type { SystemTables } from './system.tables.js';

/**
 * The system service: editable error texts, notices, settings, dictionaries, inboxes,
 * templates, edge certificates, and the in-container SMS entry. Its tables are its own
 * (migration 0026); every administrative change is in the business audit.
 */
export async function buildSystemApp(kernel: Kernel, _ports: SystemPorts): Promise<HttpApp> {
  const { settings, logger, cache } = kernel;
  const db = kernel.database.db.withTables<SystemTables>();
  const audit = kernel.businessAudit;
  const { app } = await createServiceApp(kernel, 'system');
  trustGatewayHeaders(app, { signingSecret: settings.gateway.signingSecret, nonces: cache });
  registerReadiness(app, {
    database: () => sql`SELECT 1`.execute(db),
    cache: () => cache.ping(),
  });
  const now = () => new Date();
  registerErrorTextRoutes(app, new ErrorTextsService({ db, audit }));
  registerNoticeRoutes(app, new NoticesService({ db, audit, now }));
  registerSettingRoutes(app, new SettingsService({ db, audit }));
  registerDictRoutes(app, new DictsService({ db, audit }));
  registerInboxRoutes(app, new InboxService({ db, now }));
  registerTemplateRoutes(app, new TemplatesService({ db, audit }));
  const sealer = new KeySealer(settings.system.encryptionSecret);
  registerCertificateRoutes(app, new CertificatesService({ db, audit, sealer }));
  const sms = new SmsService({
    provider: { url: settings.system.sms.providerUrl, token: settings.system.sms.providerToken },
    logger: logger.child({ service: 'system' }),
  });
  registerSmsRoutes(app, sms, settings.system.internalToken);
  return app;
}
