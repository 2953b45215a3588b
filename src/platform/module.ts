import type { Settings } from '../config/settings.js';
import type { SettingsSlice } from '../config/slice.js';
import type { HttpApp } from './http/server.js';
import type { JobDeclaration, JobSpec } from './jobs/catalogue.js';
import type { PermissionSpec } from './auth/permissions.js';
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

/** A path prefix the gateway proxies to a service. */
export interface ServiceRoute {
  prefix: string;
  /** Path on the service, when it differs (the bare-path aliases of the API). */
  rewritePrefix?: string;
  /** Skips forward-auth for the paths it accepts: sign-in itself, public protocol endpoints. */
  isPublic?: (path: string) => boolean;
  /**
   * The requests (method, path as the client sent it) whose body the gateway streams to the
   * service instead of reading it whole: an upload. Their signed set carries UNSIGNED_PAYLOAD in
   * place of the body's digest, which a service accepts only on routes it declares the same way
   * (`trustGatewayHeaders`' `streamsBody`). Every other request of the route stays hashed.
   */
  streamsBody?: (method: string, path: string) => boolean;
  /** The body cap of the requests `streamsBody` accepts (others keep the 1 MiB limit). */
  bodyLimit?: (settings: Settings) => number;
}

/**
 * A service's one public face (`src/services/<name>/index.ts`) and the one place that knows its
 * own facts: its name (the folder's, and `<NAME>_SERVICE_URL`), its default port in
 * one-service-per-process mode, the gateway routes in front of it, the ports it needs (declared
 * in its own code or in src/platform, never another service's types) and how it is built over
 * the kernel. What it provides to others (adapters that fit their ports) is exported beside it;
 * `src/start.ts` holds the only list of modules and wires them.
 */
export interface ServiceModule<Ports = Record<string, never>, Name extends string = string> {
  name: Name;
  defaultPort: number;
  routes: readonly ServiceRoute[];
  /** The permission codes this service declares (the catalogue is every module's). */
  permissions: readonly PermissionSpec[];
  /** Codes its routes require that another module declares (checked to exist by a test). */
  uses?: readonly string[];
  /**
   * Every job `create` may build, declared without building it: the monitor lists them all,
   * including one that has never reported. A built job it does not declare fails the start.
   */
  jobs: readonly JobDeclaration[];
  /**
   * The environment variables it reads and the shape its code sees as `settings.<name>`
   * (`<name>.settings.ts` beside it, which adds that shape to `ModuleSettings`).
   */
  settings?: SettingsSlice;
  create(kernel: Kernel, ports: Ports): Promise<ServiceInstance>;
}

/** Every public path of a route: for services that validate their own tokens (BPM). */
export const always = (): boolean => true;

/** The instance, once every job it built is one its module declares (the monitor lists those). */
export function assertJobsDeclared(
  module: Pick<ServiceModule<never>, 'name' | 'jobs'>,
  instance: ServiceInstance,
): ServiceInstance {
  const declared = new Set(module.jobs.map((j) => j.name));
  const undeclared = instance.jobs.filter((j) => !declared.has(j.name)).map((j) => j.name);
  if (undeclared.length > 0) {
    throw new Error(`${module.name} builds undeclared jobs: ${undeclared.join(', ')}`);
  }
  return instance;
}
