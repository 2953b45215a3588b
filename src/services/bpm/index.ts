/**
 * The BPM service's public face. Needs: `BpmPorts` (a bearer verifier, a tenant directory, a
 * tenant's uploaded files).
 * Serves: definitions, instances, tasks, CC, simulation, stats, internal endpoints, readiness
 * at `/health/ready` and `/api/v1/bpm/health/ready`, metrics. Jobs: the outbox worker and the
 * timeout scanner. Provides `bpmOpenTasks` (how many open tasks a user holds) and
 * `bpmHoldsFile` (whether a live request's form holds a file).
 */
import type { Kysely } from 'kysely';
import type { Kernel } from '../../platform/kernel.js';
import { BPM_PERMISSIONS } from './bpm.permissions.js';
import { always, type ServiceModule } from '../../platform/module.js';
import { buildBpmApp } from './bpm.app.js';
import type { BpmPorts } from './bpm.ports.js';
import { isFileHeld } from './runtime/instance-files.repo.js';
import type { BpmTables } from './bpm.tables.js';
import { BPM_JOBS, bpmJobs } from './jobs/bpm.jobs.js';
import { openTasksOf } from './tasks/tasks.repo.js';
import { bpmSettings } from './bpm.settings.js';

export type { BpmDirectory, BpmPorts, DirectoryOf, UserProfile } from './bpm.ports.js';

export const bpmModule: ServiceModule<BpmPorts, 'bpm'> = {
  name: 'bpm',
  settings: bpmSettings,
  permissions: BPM_PERMISSIONS,
  defaultPort: 8103,
  jobs: Object.values(BPM_JOBS),
  // Not behind forward-auth: BPM validates the Bearer JWT itself (its internal endpoints take a
  // token of their own).
  routes: [{ prefix: '/api/v1/bpm', isPublic: always }],
  async create(kernel, ports) {
    const { app } = await buildBpmApp(kernel, ports);
    return { app, jobs: bpmJobs(kernel, ports) };
  },
};

/** Whether a live request of the tenant holds the file (the files service's `isHeld` port). */
export function bpmHoldsFile(kernel: Kernel) {
  const pool = kernel.database.db.withTables<BpmTables>();
  return <DB>(tenantId: number, fileId: number, on?: Kysely<DB>) =>
    isFileHeld((on as Kysely<BpmTables> | undefined) ?? pool, tenantId, fileId);
}

/** How many open approval tasks (pending or waiting) a user holds in a tenant. */
export function bpmOpenTasks(kernel: Kernel) {
  const db = kernel.database.db.withTables<BpmTables>();
  return async (tenantId: number, userId: number) =>
    (await openTasksOf(db, tenantId, userId)).length;
}
