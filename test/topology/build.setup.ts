import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The topology tests run the built platform, as production does: build dist/ once first. */
export default function setup() {
  execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], {
    cwd: fileURLToPath(new URL('../..', import.meta.url)),
    stdio: 'inherit',
  });
}
