import type { Logger } from 'pino';
import { parseSettings, type Settings } from './config/settings.js';
import { startGateway } from './front-door.js';
import type { BearerVerifier } from './platform/auth/guard.js';
import { openDatabase, type DatabaseHandle } from './platform/db/database.js';
import { migrate } from './platform/db/migrator.js';
import { listen } from './platform/http/listen.js';
import { startJobs } from './platform/jobs/lifecycle.js';
import { openKernel, type Kernel } from './platform/kernel.js';
import type { PermissionSpec } from './platform/auth/permissions.js';
import { assertJobsDeclared } from './platform/module.js';
import type { ServiceInstance, ServiceModule } from './platform/module.js';
import { auditModule } from './services/audit/index.js';
import { authModule, createBearerVerifier } from './services/auth/index.js';
import { bpmHoldsFile, bpmModule, bpmOpenTasks } from './services/bpm/index.js';
import type { GatewayRoute } from './services/gateway/index.js';
import { filesModule, filesOfTenant } from './services/files/index.js';
import { codegenModule } from './services/codegen/index.js';
import { monitorModule, type MonitorPorts } from './services/monitor/index.js';
import {
  systemCertificates,
  systemInbox,
  systemModule,
  systemTemplates,
} from './services/system/index.js';
import { heartbeatCatalogue } from './platform/jobs/catalogue.js';
import {
  identityDirectory,
  identityModule,
  identityPlatformAdmins,
  identityStorageQuota,
  seedIdentityData,
  type IdentityDirectory,
} from './services/identity/index.js';

/**
 * The composition root: the only place that knows every service. Each service is a module
 * (`src/services/<name>/index.ts`); a process starts a list of them with one code path,
 * whatever the mode, and hands each the ports it declares, fitted with the adapters the
 * providing modules export.
 */

/** The adapters one module provides to others, built once per process that needs them. */
interface Providers {
  directory: IdentityDirectory;
  verifyBearer: BearerVerifier;
  /** The services listening in this process, by name (filled in as each one listens). */
  local: Readonly<Record<string, string>>;
}

function provide(kernel: Kernel, local: Readonly<Record<string, string>> = {}): Providers {
  const directory = identityDirectory(kernel);
  return { directory, verifyBearer: createBearerVerifier(kernel, { users: directory }), local };
}

/** Where the monitor reaches a service: here, else `<NAME>_SERVICE_URL`, else its default port. */
function serviceUrlOf(kernel: Kernel, local: Providers['local']): (name: string) => string {
  return (name) =>
    local[name] ??
    kernel.settings.serviceUrls[name] ??
    `http://127.0.0.1:${SERVICE_PORTS[name as ServiceName]}`;
}

/** A module with its ports fitted from the providers. */
function wired<Ports, Name extends string>(
  module: ServiceModule<Ports, Name>,
  ports: (kernel: Kernel, providers: Providers) => Ports,
) {
  return {
    module,
    async build(kernel: Kernel, providers: Providers) {
      return assertJobsDeclared(module, await module.create(kernel, ports(kernel, providers)));
    },
  };
}

/**
 * The only list of services. Everything else that needs to know them is derived from it: the
 * names (`serve --service`, `<NAME>_SERVICE_URL`), the default ports, the gateway's routes, the
 * OpenAPI document and the production topology test's processes.
 */
const MODULES = [
  wired(authModule, (kernel, p) => ({
    users: p.directory,
    renderText: systemTemplates(kernel).render,
  })),
  wired(identityModule, (kernel) => ({
    openTasksOf: bpmOpenTasks(kernel),
    permissions: permissionCatalogue(),
  })),
  wired(bpmModule, (kernel, p) => ({
    verifyBearer: p.verifyBearer,
    directoryOf: (tenantId, on) => p.directory.tenant(tenantId, on),
    filesOf: filesOfTenant(kernel),
    inbox: systemInbox(kernel),
    renderText: systemTemplates(kernel).render,
  })),
  wired(auditModule, (kernel) => ({
    inbox: systemInbox(kernel),
    renderText: systemTemplates(kernel).render,
  })),
  wired(filesModule, (kernel) => ({
    quotaOf: identityStorageQuota(kernel),
    isHeld: bpmHoldsFile(kernel),
  })),
  wired(systemModule, () => ({})),
  wired(monitorModule, (kernel, p): MonitorPorts => ({
    services: serviceNames(),
    serviceUrl: serviceUrlOf(kernel, p.local),
    jobs: heartbeatCatalogue(allJobs(), kernel.settings),
    knownUsers: async (tenantId, ids) =>
      (await p.directory.tenant(tenantId).users([...ids])).map((u) => u.id),
    platformAdmins: identityPlatformAdmins(kernel),
    inbox: systemInbox(kernel),
    certificates: systemCertificates(kernel),
  })),
  wired(codegenModule, () => ({})),
] as const;

export type ServiceName = (typeof MODULES)[number]['module']['name'];

/** Every code a role may grant, in the modules' order (GET /api/v1/permissions). */
export function permissionCatalogue(): readonly PermissionSpec[] {
  return MODULES.flatMap((m) => m.module.permissions);
}
export const SERVICE_NAMES: readonly ServiceName[] = MODULES.map((m) => m.module.name);
const serviceNames = (): readonly string[] => SERVICE_NAMES;
const allJobs = () => SERVICE_MODULES.flatMap((m) => m.jobs);
/** The modules themselves, in the list's order (their declarations, not their wiring). */
export const SERVICE_MODULES: readonly Omit<ServiceModule<never>, 'create'>[] = MODULES.map(
  (m) => m.module,
);

/**
 * Parses the environment once, for the platform and every module's settings slice; throws
 * ConfigError naming every bad setting.
 */
export function loadSettings(source: NodeJS.ProcessEnv = process.env): Settings {
  return parseSettings(source, SERVICE_MODULES);
}

const moduleOf = (name: ServiceName) => MODULES.find((m) => m.module.name === name)!;

/** Default port of each service in one-service-per-process mode. */
export const SERVICE_PORTS = Object.fromEntries(
  MODULES.map((m) => [m.module.name, m.module.defaultPort]),
) as Record<ServiceName, number>;

/** Every route the gateway proxies, with the service behind it, in the modules' order. */
export const GATEWAY_ROUTES: readonly GatewayRoute[] = MODULES.flatMap((m) =>
  m.module.routes.map((route) => ({ ...route, service: m.module.name })),
);

/** Builds one service's app and job catalogue (not listening, jobs not started): OpenAPI, benches. */
export function buildService(name: ServiceName, kernel: Kernel): Promise<ServiceInstance> {
  return moduleOf(name).build(kernel, provide(kernel));
}

/**
 * The seed (tenant `default`, `admin`): idempotent and under an advisory lock, so `migrate` and
 * any number of processes starting at the same moment may all run it.
 */
function seed(database: DatabaseHandle, settings: Settings, logger: Logger): Promise<void> {
  return seedIdentityData(
    database,
    { production: settings.production, adminInitialPassword: settings.adminInitialPassword },
    logger,
  );
}

/** `approva migrate`: migrations (under the migrator's advisory lock), then the seed; exits. */
export async function migrateAndSeed(settings: Settings, logger: Logger): Promise<number> {
  const database = await openDatabase({ ...settings.database, logger });
  try {
    const applied = await migrate(database, logger);
    await seed(database, settings, logger);
    return applied;
  } finally {
    await database.close();
  }
}

export interface RunningPlatform {
  /** The gateway's base URL, or the one service's in one-service mode. */
  url: string;
  /** The base URL of each service this process runs. */
  serviceUrls: Partial<Record<ServiceName, string>>;
  /** The internal metrics listener (METRICS_PORT), when a gateway runs here with metrics on. */
  metricsUrl: string | undefined;
  /** The background jobs started in this process. */
  jobs: string[];
  /** Set when this process runs a service. */
  kernel: Kernel | undefined;
  close(): Promise<void>;
}

/** What one process runs. */
export interface ProcessPlan {
  services: readonly ServiceName[];
  /** The front door: on HOST:PORT, in front of the services here or at *_SERVICE_URL. */
  gateway: boolean;
}

/** All-in-one: every service on loopback, ephemeral ports, the gateway in front. */
export const ALL_IN_ONE: ProcessPlan = { services: SERVICE_NAMES, gateway: true };

/** `serve --service <name>`: one service, or the gateway alone. */
export function onePlan(name: ServiceName | 'gateway'): ProcessPlan {
  return name === 'gateway'
    ? { services: [], gateway: true }
    : { services: [name], gateway: false };
}

/**
 * Starts the services of `plan` and, when asked, the gateway, in this process. One path for
 * every mode: each service is built from its module, listens, and its job catalogue is started
 * by the same lifecycle. Only the addresses differ: with the gateway here, services listen on
 * loopback ephemeral ports it proxies to; alone, on SERVICE_HOST:SERVICE_PORT.
 */
export async function startProcess(
  plan: ProcessPlan,
  settings: Settings,
  logger: Logger,
): Promise<RunningPlatform> {
  const together = plan.gateway && plan.services.length > 0;
  if (plan.services.length > 0 && !together && !settings.database.url) {
    throw new Error(
      'one-service-per-process mode needs DATABASE_URL: the embedded database belongs to one process',
    );
  }
  const closers: Array<() => Promise<unknown>> = [];
  const closeAll = async () => {
    for (const close of closers) await close().catch(() => undefined);
  };
  let kernel: Kernel | undefined;
  try {
    const serviceUrls: Partial<Record<ServiceName, string>> = {};
    const jobs: string[] = [];
    const instances: ServiceInstance[] = [];
    const apps: Record<string, ServiceInstance['app']> = {};
    let providers: Providers | undefined;
    if (plan.services.length > 0) {
      const opened = await openKernel(settings, logger);
      kernel = opened;
      closers.push(() => opened.close());
      // openKernel migrated (a no-op after `migrate`); the seed is once per database too.
      await seed(opened.database, settings, logger);
      const fitted = provide(opened, serviceUrls);
      providers = fitted;
      for (const name of plan.services) {
        const service = await moduleOf(name).build(opened, fitted);
        instances.push(service);
        apps[name] = service.app;
        closers.unshift(() => service.app.close());
        const port = together ? 0 : settings.http.servicePort || SERVICE_PORTS[name];
        // Together, a service is this process's gateway's private upstream: exclusive, so that
        // all-in-one under the cluster module (pm2's cluster mode, say) keeps each worker's
        // gateway on its own services instead of sharing one port across the workers.
        serviceUrls[name] = await listen(service.app, settings.http.serviceHost, port, together);
        const running = startJobs(service.jobs, { db: opened.database.db, logger });
        closers.unshift(() => running.stop());
        jobs.push(...running.names);
      }
    }
    let url = plan.services.length === 1 ? serviceUrls[plan.services[0]!]! : '';
    let metricsUrl: string | undefined;
    if (plan.gateway) {
      const front = await startGateway(
        settings,
        logger,
        kernel,
        serviceUrls,
        GATEWAY_ROUTES,
        providers?.verifyBearer,
        apps,
      );
      closers.unshift(front.close);
      url = front.url;
      metricsUrl = front.metricsUrl;
    }
    // The address clients reach the platform at (the OAuth2 issuer's base): OIDC_ISSUER_URL,
    // else this process's gateway, else the gateway's default address.
    const publicUrl =
      settings.auth.oidc.issuerBase ??
      (plan.gateway ? url : `http://localhost:${settings.http.port || 8080}`);
    for (const service of instances) await service.onPublicUrl?.(publicUrl);
    logger.info(
      {
        url,
        services: serviceUrls,
        jobs,
        ...(kernel && {
          database: kernel.database.kind,
          cache: kernel.cache.kind,
          stream: kernel.stream.kind,
        }),
      },
      'started',
    );
    return { url, serviceUrls, metricsUrl, jobs, kernel, close: closeAll };
  } catch (err) {
    await closeAll();
    throw err;
  }
}

/** The all-in-one platform: every service runs here, so the kernel and every URL are set. */
export interface AllInOnePlatform extends RunningPlatform {
  serviceUrls: Record<ServiceName, string>;
  kernel: Kernel;
}

/** All-in-one mode (`serve`): every service and the gateway in one process. */
export async function startPlatform(settings: Settings, logger: Logger): Promise<AllInOnePlatform> {
  return (await startProcess(ALL_IN_ONE, settings, logger)) as AllInOnePlatform;
}

/** One service per process (production): `serve --service <name>`. */
export function startService(
  name: ServiceName | 'gateway',
  settings: Settings,
  logger: Logger,
): Promise<RunningPlatform> {
  return startProcess(onePlan(name), settings, logger);
}
