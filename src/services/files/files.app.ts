import { sql } from 'kysely';
import { trustGatewayHeaders } from '../../platform/auth/guard.js';
import { registerReadiness } from '../../platform/http/health.js';
import type { HttpApp } from '../../platform/http/server.js';
import { createServiceApp } from '../../platform/http/service-app.js';
import type { Kernel } from '../../platform/kernel.js';
import type { JobSpec } from '../../platform/jobs/catalogue.js';
import { FILES_JOBS, filesJobs } from './files.jobs.js';
import type { FilesPorts } from './files.ports.js';
import { registerFilesRoutes, UPLOAD_PATH } from './files.routes.js';
import { FilesService } from './files.service.js';
import type { FilesTables } from './files.tables.js';
import { openLocalStorage } from './storage/local-storage.js';
import { openS3Storage } from './storage/s3-storage.js';
import type { FileStorage } from './storage/storage.js';
import { UrlSigner } from './url-signer.js';

/** The requests whose body the gateway streams unhashed: the upload, and nothing else. */
export const streamsBody = (method: string, path: string): boolean =>
  method === 'POST' && path === UPLOAD_PATH;

async function openStorage(kernel: Kernel): Promise<FileStorage> {
  const uploads = kernel.settings.files;
  return uploads.storageType === 'local'
    ? openLocalStorage(uploads.localDir)
    : openS3Storage(uploads.s3, kernel.logger);
}

/**
 * The files service: uploads streamed to the storage (local disk or S3) under random keys,
 * their rows and per-tenant usage in its own tables, downloads through signed links.
 */
export async function buildFilesApp(
  kernel: Kernel,
  ports: FilesPorts,
): Promise<{ app: HttpApp; jobs: JobSpec[] }> {
  const { settings, logger, cache } = kernel;
  const db = kernel.database.db.withTables<FilesTables>();
  const { app } = await createServiceApp(kernel, 'files');
  trustGatewayHeaders(app, {
    signingSecret: settings.gateway.signingSecret,
    nonces: cache,
    streamsBody,
  });
  const storage = await openStorage(kernel);
  app.addHook('onClose', () => storage.close());
  registerReadiness(app, {
    database: () => sql`SELECT 1`.execute(db),
    cache: () => cache.ping(),
    storage: () => storage.ping(),
  });
  const signer = new UrlSigner(settings.files.urlSignSecret, settings.files.urlTtlSeconds);
  const service = new FilesService({
    db,
    storage,
    signer,
    ports,
    audit: kernel.businessAudit,
    maxSize: settings.files.maxSize,
    logger: logger.child({ service: 'files' }),
  });
  await registerFilesRoutes(app, service, signer, settings.files.maxSize);
  const jobs = filesJobs(settings, {
    db,
    storage,
    logger: logger.child({ job: FILES_JOBS.orphanSweep.name }),
  });
  return { app, jobs };
}
