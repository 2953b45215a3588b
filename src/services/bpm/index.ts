/**
 * The BPM service's public face. Needs: `BpmPorts` (a bearer verifier, a tenant directory).
 * Serves: definitions, instances, tasks, CC, simulation, stats, internal endpoints, readiness
 * at `/health/ready` and `/api/v1/bpm/health/ready`, metrics. Jobs: the outbox worker and the
 * timeout scanner. Provides nothing to other services.
 */
import type { ServiceModule } from '../../platform/module.js';
import { buildBpmApp } from './bpm.app.js';
import type { BpmPorts } from './bpm.ports.js';
import { bpmJobs } from './jobs/bpm.jobs.js';

export type { BpmDirectory, BpmPorts, DirectoryOf, UserProfile } from './bpm.ports.js';

export const bpmModule: ServiceModule<BpmPorts> = {
  name: 'bpm',
  async create(kernel, ports) {
    const { app } = await buildBpmApp(kernel, ports);
    return { app, jobs: bpmJobs(kernel, ports) };
  },
};
