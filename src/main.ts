#!/usr/bin/env node
import { readdirSync, readFileSync } from 'node:fs';
import { parseInvocation } from './cli.js';
import { runtimeProblem } from './config/runtime.js';
import type { ServiceName } from './start.js';
import { ConfigError, parseCoreSettings } from './config/settings.js';
import { routeConsoleTo } from './platform/logging/console-bridge.js';
import { createLogger } from './platform/logging/logger.js';

/** The services, as their folders name them (src/start.ts lists the modules, one per folder). */
const SERVICE_FOLDERS = readdirSync(new URL('./services', import.meta.url)).filter(
  (name) => name !== 'gateway',
);

const HELP = `approva: the Approva administration platform

Usage:
  approva serve                     all-in-one: gateway on PORT (default 8080), every service on 127.0.0.1
  approva serve --service <name>    one service per process: gateway, ${SERVICE_FOLDERS.join(', ')}
  approva migrate                   apply pending database migrations, seed a fresh database, exit
  approva keys rotate               add a new OAuth2/OIDC signing key (old ones stay published until their tokens expire)
  approva version                   print the version
  approva help                      this text

Every setting is an environment variable; see README.md ("Configuration").
With no settings the platform runs on embedded PGlite in ./data with an in-process cache.`;

function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  return pkg.version;
}

async function main(argv: string[]): Promise<number> {
  const invocation = parseInvocation(argv, SERVICE_FOLDERS);
  if ('error' in invocation) {
    process.stderr.write(`${invocation.error}\n${invocation.withHelp ? `\n${HELP}\n` : ''}`);
    return 2;
  }
  if (invocation.command === 'help') {
    process.stdout.write(`${HELP}\n`);
    return 0;
  }
  if (invocation.command === 'version') {
    process.stdout.write(`${version()}\n`);
    return 0;
  }
  const runtime = runtimeProblem(process.version);
  if (runtime) {
    process.stderr.write(`approva: ${runtime}\n`);
    return 1;
  }
  // The platform's own settings first (the log level among them), so the console is routed into
  // the JSON log before the services load: some libraries print with console when imported, and
  // every line this process writes is JSON. Then every module's settings.
  const logger = createLogger(parseCoreSettings(process.env).logLevel);
  routeConsoleTo(logger);
  const { loadSettings, migrateAndSeed, startPlatform, startService } = await import('./start.js');
  const settings = loadSettings();
  for (const setting of settings.defaultsInUse) {
    logger.warn(
      { setting },
      `development default in use: ${setting}; set it before exposing the platform`,
    );
  }

  if (invocation.command === 'migrate') {
    const applied = await migrateAndSeed(settings, logger);
    logger.info({ applied }, 'migrations and seed done');
    return 0;
  }
  if (invocation.command === 'keys-rotate') {
    const { rotateKeys } = await import('./services/auth/oauth2/keys.command.js');
    const kid = await rotateKeys(settings, logger);
    process.stdout.write(`${kid}\n`);
    return 0;
  }
  // The service folders are the module list's names (src/modules.test.ts checks it).
  const service = invocation.service as ServiceName | 'gateway' | undefined;
  const running = service
    ? await startService(service, settings, logger)
    : await startPlatform(settings, logger);
  logger.info({ url: running.url, service: service ?? 'all' }, 'listening');
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    await running.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  return -1; // keep running
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exit(code);
  },
  (err: unknown) => {
    // Straight to stderr, not through console: console goes into the JSON log once main has
    // routed it, and this line is for the person who ran the command.
    const reason = err instanceof Error ? err.message : String(err);
    process.stderr.write(
      err instanceof ConfigError
        ? `approva: refusing to start: ${reason}\n`
        : `approva: failed to start: ${reason}\n`,
    );
    process.exit(1);
  },
);
