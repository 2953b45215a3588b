/**
 * The files service's public face. Needs `FilesPorts` (the tenant's quota from identity; whether
 * BPM holds a file). Provides `filesOfTenant` (a tenant's files with fresh signed links, for BPM's
 * file fields). Serves: upload, list, signed links, delete, and the signed downloads at
 * `/uploads`; readiness at `/health/ready`, metrics. Job: the orphan sweep (stored objects no
 * row names).
 */
import type { ServiceModule } from '../../platform/module.js';
import { always } from '../../platform/module.js';
import { buildFilesApp, streamsBody } from './files.app.js';
import { FILES_JOBS } from './files.jobs.js';
import { FILES_PERMISSIONS } from './files.permissions.js';
import type { FilesPorts } from './files.ports.js';
import { filesSettings } from './files.settings.js';

export type { FilesPorts } from './files.ports.js';
export { filesOfTenant, type LinkedFile, type TenantFiles } from './files.catalogue.js';

/** Multipart framing around the one file: headers, boundaries (generous; the file cap is exact). */
const FRAMING_ALLOWANCE = 64 * 1024;

export const filesModule: ServiceModule<FilesPorts, 'files'> = {
  name: 'files',
  settings: filesSettings,
  permissions: FILES_PERMISSIONS,
  defaultPort: 8105,
  jobs: [FILES_JOBS.orphanSweep],
  routes: [
    {
      prefix: '/api/v1/files',
      streamsBody,
      bodyLimit: (settings) => settings.files.maxSize + FRAMING_ALLOWANCE,
    },
    // The signature in the link is the credential: no bearer token, no forward-auth.
    { prefix: '/uploads', isPublic: always },
  ],
  async create(kernel, ports) {
    return buildFilesApp(kernel, ports);
  },
};
