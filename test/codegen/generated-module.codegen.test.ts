import { execFile } from 'node:child_process';
import { cp, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from '../helpers/platform.js';
import { dataOf } from '../identity/identity-fixtures.js';
import { customerSpec } from './codegen-fixtures.js';

/**
 * The generator's promise, kept on a copy of this project: a module written through the API
 * passes the project's own type check, lint, format check and module-coherence test, and its
 * generated HTTP test passes against a platform that now runs it. Slow (a type check of the
 * whole project), so it is its own vitest project: `npx vitest run --project codegen`.
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const COPIED = [
  'src',
  'test',
  'bench',
  'scripts',
  'migrations',
  'docs',
  'package.json',
  'tsconfig.json',
  'vitest.config.ts',
  'eslint.config.js',
  '.prettierrc.json',
  '.prettierignore',
];
let copy: string;
let platform: TestPlatform;

beforeAll(async () => {
  copy = await mkdtemp(join(tmpdir(), 'codegen-project-'));
  for (const entry of COPIED) await cp(join(ROOT, entry), join(copy, entry), { recursive: true });
  await symlink(join(ROOT, 'node_modules'), join(copy, 'node_modules'), 'dir');
  platform = await startTestPlatform({ CODEGEN_WRITE_ENABLED: 'true', CODEGEN_OUTPUT_DIR: copy });
});
afterAll(async () => {
  await platform?.close();
  if (copy) await rm(copy, { recursive: true, force: true });
});

/** Runs a tool of the project in the copy; its output is the failure's message. */
async function inCopy(tool: string, args: string[]) {
  try {
    await promisify(execFile)(process.execPath, [join('node_modules', tool), ...args], {
      cwd: copy,
      env: process.env,
      maxBuffer: 16 * 1024 * 1024,
    });
  } catch (err) {
    const { stdout, stderr } = err as { stdout?: string; stderr?: string };
    throw new Error(`${tool} ${args.join(' ')} failed:\n${stdout}\n${stderr}`, { cause: err });
  }
}

it('writes a module that type-checks, lints, is formatted, and passes its own HTTP test', async () => {
  const written = dataOf(
    await platform.call('POST', '/api/v1/codegen/write', {
      token: await platform.adminToken(),
      body: customerSpec('crm'),
    }),
  );
  const paths: string[] = written.paths;
  const code = paths.filter((p) => p.endsWith('.ts'));
  await inCopy('typescript/bin/tsc', ['--noEmit', '-p', 'tsconfig.json']);
  await inCopy('eslint/bin/eslint.js', ['--max-warnings', '0', ...code]);
  await inCopy('prettier/bin/prettier.cjs', ['--check', ...code]);
  await inCopy('vitest/vitest.mjs', ['run', '--project', 'unit', 'src/modules.test.ts']);
  await inCopy('vitest/vitest.mjs', ['run', '--project', 'integration', 'test/crm']);
  expect(paths).toContain('test/crm/customers.int.test.ts');
});
