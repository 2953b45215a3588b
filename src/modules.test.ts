import { existsSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ConfigError, parseSettings } from './config/settings.js';
import { int } from './config/env-fields.js';
import { defineSettings } from './config/slice.js';
import { loadSettings } from './start.js';
import {
  GATEWAY_ROUTES,
  permissionCatalogue,
  SERVICE_MODULES,
  SERVICE_NAMES,
  SERVICE_PORTS,
} from './start.js';

// src/start.ts holds the only list of modules; what is derived from it must stay coherent.

describe('the module list', () => {
  it('has one module per service folder, named after it (lint boundaries come from the folders)', () => {
    const folders = readdirSync(new URL('./services', import.meta.url)).filter(
      (name) => name !== 'gateway',
    );
    expect([...SERVICE_NAMES].sort()).toEqual(folders.sort());
  });

  it('gives every service its own default port and every gateway prefix one service', () => {
    const ports = Object.values(SERVICE_PORTS);
    expect(new Set(ports).size).toBe(ports.length);
    const prefixes = GATEWAY_ROUTES.map((r) => r.prefix);
    expect(new Set(prefixes).size).toBe(prefixes.length);
    for (const name of SERVICE_NAMES) {
      expect(GATEWAY_ROUTES.some((r) => r.service === name)).toBe(true);
    }
  });

  it('joins every module\u2019s permission codes into one catalogue, each code declared once', () => {
    const codes = permissionCatalogue().map((p) => p.code);
    expect(new Set(codes).size).toBe(codes.length);
    for (const m of SERVICE_MODULES) {
      for (const p of m.permissions) expect(codes).toContain(p.code);
      // A code a module requires but another declares must be in the catalogue.
      for (const used of m.uses ?? []) expect(codes).toContain(used);
    }
  });

  it('loads each module’s settings slice as `settings.<name>` (the file beside it declares it)', () => {
    const settings = loadSettings({}) as unknown as Record<string, unknown>;
    for (const m of SERVICE_MODULES) {
      const file = new URL(`./services/${m.name}/${m.name}.settings.ts`, import.meta.url);
      expect(m.settings !== undefined, `${m.name} declares its settings file`).toBe(
        existsSync(file),
      );
      if (m.settings) expect(settings[m.name]).toEqual(expect.any(Object));
    }
    expect(settings.files).toMatchObject({ storageType: 'local', maxSize: 50 * 1024 * 1024 });
  });

  it('refuses a variable two slices declare, and reports a slice’s bad value by its name', () => {
    const slice = defineSettings({
      env: { PROBE_LIMIT: int(1, 1, 9) },
      shape: (env) => env.PROBE_LIMIT,
    });
    expect(() =>
      parseSettings({}, [
        { name: 'a', settings: slice },
        { name: 'b', settings: slice },
      ]),
    ).toThrow(/b declares PROBE_LIMIT/);
    expect(parseSettings({ PROBE_LIMIT: '7' }, [{ name: 'probe', settings: slice }])).toMatchObject(
      {
        probe: 7,
      },
    );
    expect(() =>
      parseSettings({ PROBE_LIMIT: '10' }, [{ name: 'probe', settings: slice }]),
    ).toThrow(ConfigError);
  });

  it('declares each job once, under its module’s name (`<service>.<job>`)', () => {
    const names = SERVICE_MODULES.flatMap((m) => m.jobs.map((j) => j.name));
    expect(new Set(names).size).toBe(names.length);
    for (const m of SERVICE_MODULES) {
      for (const job of m.jobs) expect(job.name.startsWith(`${m.name}.`)).toBe(true);
    }
    expect(names).toEqual(expect.arrayContaining(['audit.login_consumer', 'bpm.outbox']));
  });

  it('reads <NAME>_SERVICE_URL for any service and refuses a malformed one', () => {
    const settings = loadSettings({ BPM_SERVICE_URL: 'http://10.0.0.5:8103', NODE_ENV: 'test' });
    expect(settings.serviceUrls).toEqual({ bpm: 'http://10.0.0.5:8103' });
    expect(() => loadSettings({ FILES_SERVICE_URL: 'not a url', NODE_ENV: 'test' })).toThrow(
      /FILES_SERVICE_URL/,
    );
  });
});
