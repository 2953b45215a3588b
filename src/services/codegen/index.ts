/**
 * The code generator's public face. Needs no port. Serves `POST /api/v1/codegen/preview` and,
 * where CODEGEN_WRITE_ENABLED=true, `POST /api/v1/codegen/write`: from a table description, a
 * service module in the project's own layout. No jobs. Provides nothing to others.
 */
import type { ServiceModule } from '../../platform/module.js';
import { buildCodegenApp } from './codegen.app.js';
import { CODEGEN_PERMISSIONS } from './codegen.permissions.js';
import { codegenSettings } from './codegen.settings.js';

export const codegenModule: ServiceModule<Record<string, never>, 'codegen'> = {
  name: 'codegen',
  settings: codegenSettings,
  permissions: CODEGEN_PERMISSIONS,
  defaultPort: 8108,
  routes: [{ prefix: '/api/v1/codegen' }],
  jobs: [],
  async create(kernel) {
    return { app: await buildCodegenApp(kernel), jobs: [] };
  },
};
