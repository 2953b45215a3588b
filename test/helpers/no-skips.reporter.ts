import type { Reporter, TestModule } from 'vitest/node';
// Importing it fails the run at once when a real server's URL is missing.
import './real-servers.js';

/**
 * Fails a run in which any test was skipped. `.ci/run`'s real-servers pass uses it (with
 * `REQUIRE_REAL_SERVERS=1`): there every test that needs PostgreSQL, Redis or NATS must run.
 */
export default class NoSkipsReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>) {
    const skipped = testModules.flatMap((module) =>
      [...module.children.allTests('skipped')].map(
        (test) => `${module.moduleId}: ${test.fullName}`,
      ),
    );
    if (skipped.length === 0) return;
    console.error(
      `REQUIRE_REAL_SERVERS=1, yet ${skipped.length} test(s) skipped:\n  ${skipped.join('\n  ')}`,
    );
    process.exitCode = 1;
  }
}
