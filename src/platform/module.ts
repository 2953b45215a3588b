import type { ServiceName } from '../config/settings.js';
import type { HttpApp } from './http/server.js';
import type { JobSpec } from './jobs/catalogue.js';
import type { Kernel } from './kernel.js';

/**
 * One service, as it is running in a process: its HTTP app (which serves its own readiness at
 * `/health/ready` and, when metrics are on, `/metrics`) and its background jobs. The process
 * listens on the app and starts the jobs; it does both the same way for every service.
 */
export interface ServiceInstance {
  app: HttpApp;
  jobs: JobSpec[];
  /**
   * Called once, after the process listens, with the address clients reach the platform at:
   * for a service that must name itself in what it issues (the OAuth2 issuer).
   */
  onPublicUrl?(url: string): Promise<void>;
}

/**
 * A service's one public face (`src/services/<name>/index.ts`): its name, the ports it needs
 * (declared in its own code or in src/platform, never another service's types) and how it is
 * built over the kernel. What it provides to others (adapters that fit their ports) is exported
 * beside it, and `src/start.ts` wires them.
 */
export interface ServiceModule<Ports = Record<string, never>> {
  name: ServiceName;
  create(kernel: Kernel, ports: Ports): Promise<ServiceInstance>;
}
