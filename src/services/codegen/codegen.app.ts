import { trustGatewayHeaders } from '../../platform/auth/guard.js';
import { registerReadiness } from '../../platform/http/health.js';
import type { HttpApp } from '../../platform/http/server.js';
import { createServiceApp } from '../../platform/http/service-app.js';
import type { Kernel } from '../../platform/kernel.js';
import { registerCodegenRoutes } from './codegen.routes.js';
import { CodegenProject } from './project.js';

/** The code generator: previews a service module for a table, and writes it where allowed. */
export async function buildCodegenApp(kernel: Kernel): Promise<HttpApp> {
  const { settings, cache } = kernel;
  const { app } = await createServiceApp(kernel, 'codegen');
  trustGatewayHeaders(app, { signingSecret: settings.gateway.signingSecret, nonces: cache });
  registerReadiness(app, { cache: () => cache.ping() });
  registerCodegenRoutes(app, new CodegenProject(settings.codegen.outputDir), {
    writeEnabled: settings.codegen.writeEnabled,
  });
  return app;
}
