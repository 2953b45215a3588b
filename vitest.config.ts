import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // `.ci/run`'s real-servers pass: a skipped test there is a real-server test that did not run.
    ...(process.env.REQUIRE_REAL_SERVERS === '1'
      ? { reporters: ['default', './test/helpers/no-skips.reporter.ts'] }
      : {}),
    projects: [
      {
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts'],
          environment: 'node',
          // A few unit files open an in-memory PGlite (initdb, 2-3 s idle, far more on a busy machine).
          hookTimeout: 30_000,
          // Files share their worker's module graph: 22 s instead of 66 s for the project, most of
          // it re-importing modules per file. The files pass in any order (--sequence.shuffle.files).
          isolate: false,
        },
      },
      {
        test: {
          name: 'integration',
          // The nginx edge (deploy/nginx) too: it runs where nginx is installed (REQUIRE_NGINX).
          include: ['test/**/*.int.test.ts', 'test/deploy/*.edge.test.ts'],
          environment: 'node',
          // Embedded platforms start from one initialised PGlite dump (DATA_TEMPLATE).
          globalSetup: ['test/helpers/pglite-template.setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // Two cores, three files at a time: a file's platform waits on timers and sockets part of
          // the time (a pass used 78 % of the cores with two), so a third fills the gaps: 383 s
          // -> 345 s for the embedded pass, every test passing.
          maxWorkers: 3,
          fileParallelism: true,
          // Files share their worker's module graph: each file re-importing the platform cost
          // about 300 s of a pass's workers. Nothing module-level may keep a closed platform
          // reachable: a worker grew by each file's embedded database (~250 MB) while every
          // service registry collected prom-client's default metrics, whose never-stopped GC
          // observer held the registry, its outbox gauge and the database (heap snapshot,
          // 2026-12-02); they are collected once per process now, and a worker stays near 700 MB.
          isolate: false,
        },
      },
      {
        // The code generator's output checked by the project's own tools in a copy of the
        // project (a whole type check: slow): `npx vitest run --project codegen`.
        test: {
          name: 'codegen',
          include: ['test/codegen/*.codegen.test.ts'],
          environment: 'node',
          testTimeout: 300_000,
          hookTimeout: 120_000,
        },
      },
      {
        // The production layout as separate processes from dist/ on real PostgreSQL, Redis and
        // NATS: `npx vitest run --project topology` with DATABASE_URL, REDIS_URL and NATS_URL.
        test: {
          name: 'topology',
          include: ['test/topology/*.topology.test.ts'],
          environment: 'node',
          globalSetup: ['test/topology/build.setup.ts'],
          testTimeout: 90_000,
          hookTimeout: 90_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
