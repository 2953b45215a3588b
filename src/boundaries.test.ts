import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * The lint rules that keep services apart really fire: each case lints a would-be file with one
 * import and expects exactly the boundaries rule's verdict (the import targets exist, so only the
 * rule decides).
 */
const eslint = new ESLint();

async function boundaryErrors(filePath: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${source}\nexport const probe = x;\n`, { filePath });
  return result!.messages.filter((m) => m.ruleId?.startsWith('boundaries/')).map((m) => m.ruleId!);
}

describe('import boundaries', () => {
  it('refuses a service importing another service', async () => {
    expect(
      await boundaryErrors(
        'src/services/bpm/probe.ts',
        "import { createTenantDirectory as x } from '../identity/assignee-directory.js';",
      ),
    ).toEqual(['boundaries/dependencies']);
  });

  it('refuses the platform importing a service', async () => {
    expect(
      await boundaryErrors(
        'src/platform/probe.ts',
        "import { auditModule as x } from '../services/audit/index.js';",
      ),
    ).toEqual(['boundaries/dependencies']);
  });

  it('refuses an import it cannot resolve, which it could not otherwise judge', async () => {
    expect(
      await boundaryErrors('src/services/bpm/probe.ts', "import { x } from '../nowhere/x.js';"),
    ).toEqual(['boundaries/no-unknown-dependencies']);
  });

  it('allows a service its own files, the platform and the settings', async () => {
    expect(
      await boundaryErrors(
        'src/services/bpm/probe.ts',
        [
          "import { bpmJobs } from './jobs/bpm.jobs.js';",
          "import { startJobs } from '../../platform/jobs/lifecycle.js';",
          "import { parseSettings } from '../../config/settings.js';",
          'const x = [bpmJobs, startJobs, parseSettings];',
        ].join('\n'),
      ),
    ).toEqual([]);
  });

  it('allows the composition root to import every service', async () => {
    expect(
      await boundaryErrors(
        'src/probe.ts',
        "import { bpmModule as x } from './services/bpm/index.js';",
      ),
    ).toEqual([]);
  });
});
