import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { parseInvocation } from './cli.js';
import { SERVICE_NAMES, SERVICE_PORTS } from './start.js';

// No container engine runs where the tests run: what can be checked of the container files
// without one is checked here, against the module list and the CLI.

const read = (path: string) => readFileSync(new URL(`../${path}`, import.meta.url), 'utf8');

interface ComposeService {
  command?: string[];
  deploy?: { replicas?: number };
  environment?: Record<string, string>;
  image?: string;
}
const compose = parse(read('compose.yaml'), { merge: true }) as {
  services: Record<string, ComposeService>;
};
const INFRASTRUCTURE = ['postgres', 'redis', 'nats'];

describe('compose.yaml', () => {
  it('runs every module of the list, and nothing else, each with two replicas', () => {
    const platform = Object.keys(compose.services).filter((n) => !INFRASTRUCTURE.includes(n));
    expect(platform.sort()).toEqual(['gateway', 'migrate', ...SERVICE_NAMES].sort());
    for (const name of SERVICE_NAMES) {
      expect(compose.services[name]).toMatchObject({
        command: ['serve', '--service', name],
        deploy: { replicas: 2 },
      });
    }
  });

  it('gives every command one the CLI accepts', () => {
    for (const [name, service] of Object.entries(compose.services)) {
      if (INFRASTRUCTURE.includes(name)) continue;
      expect(parseInvocation(service.command!, SERVICE_NAMES), name).not.toHaveProperty('error');
    }
    expect(compose.services.migrate!.command).toEqual(['migrate']);
  });

  it('points every process at every service (the gateway routes, the monitor probes)', () => {
    for (const name of SERVICE_NAMES) {
      expect(compose.services.gateway!.environment).toMatchObject({
        [`${name.toUpperCase()}_SERVICE_URL`]: `http://${name}:${SERVICE_PORTS[name]}`,
      });
    }
    expect(compose.services.gateway!.environment).toMatchObject({ APP_ENV: 'production' });
  });
});

describe('Dockerfile', () => {
  const dockerfile = read('Dockerfile');
  const finalStage = dockerfile.slice(dockerfile.lastIndexOf('\nFROM ')).trimStart();
  const json = (instruction: string) =>
    JSON.parse(new RegExp(`^${instruction} (\\[.*\\])$`, 'm').exec(finalStage)![1]!) as string[];

  it('starts the CLI with a command it accepts, on Node.js 24, not as root', () => {
    expect(json('ENTRYPOINT')).toEqual(['node', 'dist/main.js']);
    expect(parseInvocation(json('CMD'), SERVICE_NAMES)).toEqual({
      command: 'serve',
      service: undefined,
    });
    expect(finalStage).toMatch(/^FROM node:24[-.\w]*\n/);
    expect(finalStage).toMatch(/^USER node$/m);
  });

  it('carries what the built code reads at run time', () => {
    for (const path of ['dist', 'web/dist', 'migrations', 'docs/openapi.json', 'package.json']) {
      expect(finalStage).toMatch(
        new RegExp(`^COPY\\b.*\\s${path.replace('.', '\\.')}(\\s|$)`, 'm'),
      );
    }
  });
});

describe('the CLI', () => {
  it('refuses an unknown service or command without starting anything', () => {
    expect(parseInvocation(['serve', '--service', 'billing'], SERVICE_NAMES)).toMatchObject({
      error: expect.stringMatching(/unknown service "billing"; one of: gateway, auth/),
    });
    expect(parseInvocation(['frobnicate'], SERVICE_NAMES)).toMatchObject({ withHelp: true });
    expect(parseInvocation(['keys', 'list'], SERVICE_NAMES)).toHaveProperty('error');
    expect(parseInvocation(['serve', '--bogus'], SERVICE_NAMES)).toHaveProperty('error');
    expect(parseInvocation([], SERVICE_NAMES)).toEqual({ command: 'help' });
    expect(parseInvocation(['keys', 'rotate'], SERVICE_NAMES)).toEqual({ command: 'keys-rotate' });
  });
});
