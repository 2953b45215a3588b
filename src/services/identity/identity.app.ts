import { sql } from 'kysely';
import { trustGatewayHeaders } from '../../platform/auth/guard.js';
import { registerReadiness } from '../../platform/http/health.js';
import type { HttpApp } from '../../platform/http/server.js';
import { createServiceApp } from '../../platform/http/service-app.js';
import type { Kernel } from '../../platform/kernel.js';
import { openMailer } from '../../platform/notify/mailer.js';
import { registerDepartmentRoutes } from './departments/departments.routes.js';
import { DepartmentsService } from './departments/departments.service.js';
import type { IdentityPorts } from './identity.ports.js';
import type { IdentityTables } from './identity.tables.js';
import { registerMenuRoutes } from './menus/menus.routes.js';
import { MenusService } from './menus/menus.service.js';
import { registerPackageRoutes } from './packages/packages.routes.js';
import { PackagesService } from './packages/packages.service.js';
import { registerPostRoutes } from './posts/posts.routes.js';
import { PostsService } from './posts/posts.service.js';
import { registerPermissionRoutes } from './permissions/permissions.routes.js';
import { registerRoleRoutes } from './roles/roles.routes.js';
import { RolesService } from './roles/roles.service.js';
import { registerTenantRoutes } from './tenants/tenants.routes.js';
import { TenantsService } from './tenants/tenants.service.js';
import { registerUserRoutes } from './users/users.routes.js';
import { UsersService } from './users/users.service.js';

export async function buildIdentityApp(
  kernel: Kernel,
  ports: IdentityPorts,
): Promise<{ app: HttpApp }> {
  const { settings, logger, cache } = kernel;
  const db = kernel.database.db.withTables<IdentityTables>();
  const audit = kernel.businessAudit;
  const { app } = await createServiceApp(kernel, 'identity');
  trustGatewayHeaders(app, { signingSecret: settings.gateway.signingSecret, nonces: cache });
  registerReadiness(app, {
    database: () => sql`SELECT 1`.execute(db),
    cache: () => cache.ping(),
  });
  const mailer = openMailer(settings.mail, logger);
  app.addHook('onClose', async () => mailer?.close());
  registerUserRoutes(
    app,
    new UsersService({
      db,
      cache,
      passwords: kernel.passwords,
      audit,
      mailer,
      openTasksOf: ports.openTasksOf,
      logger: logger.child({ service: 'identity' }),
    }),
  );
  registerRoleRoutes(app, new RolesService({ db, cache, audit }), ports.permissions);
  registerDepartmentRoutes(app, new DepartmentsService({ db, audit }));
  registerTenantRoutes(app, new TenantsService({ db, cache, passwords: kernel.passwords, audit }));
  registerPermissionRoutes(app, ports.permissions);
  registerMenuRoutes(app, new MenusService({ db, audit }));
  registerPostRoutes(app, new PostsService({ db, audit }));
  registerPackageRoutes(app, new PackagesService({ db, audit }));
  return { app };
}
