import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, resolve, sep } from 'node:path';
import { AppError } from '../../platform/errors.js';
import {
  addToModuleList,
  generateModule,
  START_FILE,
  type GeneratedFile,
} from './generator/generate.js';
import { namesOf, type ModulePlacement, type ModuleSpec } from './generator/spec.js';

/**
 * The project the generator writes into (CODEGEN_OUTPUT_DIR): read to place the new module
 * (next migration number, next port, names already taken), then written — only inside it.
 */
export class CodegenProject {
  readonly root: string;

  constructor(root: string) {
    this.root = resolve(root);
  }

  /** The generated files, formatted with the project's Prettier when it has one, and start.ts. */
  async preview(spec: ModuleSpec): Promise<GeneratedFile[]> {
    const placement = await this.placement(spec);
    const start = await readFile(this.inside(START_FILE), 'utf8').catch(() => {
      throw AppError.conflict(`${START_FILE} cannot be read in the output directory`);
    });
    const listed = addToModuleList(start, spec);
    if (listed === undefined) {
      throw AppError.conflict(`${START_FILE} has no module list to add the service to`);
    }
    const files = [...generateModule(spec, placement), { path: START_FILE, content: listed }];
    return Promise.all(files.map((file) => this.formatted(file)));
  }

  /** Writes the module: new files only (never over an existing one), then start.ts. */
  async write(spec: ModuleSpec): Promise<GeneratedFile[]> {
    const files = await this.preview(spec);
    const created = files.filter((f) => f.path !== START_FILE);
    for (const file of created) {
      await mkdir(dirname(this.inside(file.path)), { recursive: true });
      await writeFile(this.inside(file.path), file.content, { flag: 'wx' }).catch((err) => {
        if ((err as NodeJS.ErrnoException).code === 'EEXIST') {
          throw AppError.conflict(`${file.path} exists: nothing more was written`);
        }
        throw err;
      });
    }
    const start = files.find((f) => f.path === START_FILE)!;
    await writeFile(this.inside(START_FILE), start.content);
    return files;
  }

  /** A project path, refused unless it stays inside the root. */
  private inside(path: string): string {
    const full = resolve(this.root, path);
    if (!full.startsWith(this.root + sep)) {
      throw AppError.validation([
        { field: 'service', rule: 'format', message: 'outside the output directory' },
      ]);
    }
    return full;
  }

  private async placement(spec: ModuleSpec): Promise<ModulePlacement> {
    const n = namesOf(spec);
    const services = await readdir(this.inside('src/services'), { withFileTypes: true }).catch(
      () => {
        throw AppError.conflict('the output directory is not an Approva project (no src/services)');
      },
    );
    if (services.some((entry) => entry.name === n.service)) {
      throw AppError.conflict(`a service named ${n.service} exists`);
    }
    let port = 8100;
    for (const entry of services.filter((e) => e.isDirectory())) {
      const index = await readFile(
        this.inside(`src/services/${entry.name}/index.ts`),
        'utf8',
      ).catch(() => '');
      const declared = /defaultPort: (\d{4,5}),/.exec(index);
      if (declared) port = Math.max(port, Number(declared[1]));
    }
    const migrations = await readdir(this.inside('migrations')).catch(() => [] as string[]);
    let migration = 0;
    for (const name of migrations) {
      const number = /^(\d{4})_.*\.sql$/.exec(name);
      if (!number) continue;
      migration = Math.max(migration, Number(number[1]));
      const sql = await readFile(this.inside(`migrations/${name}`), 'utf8');
      if (new RegExp(`CREATE TABLE (IF NOT EXISTS )?${n.table}\\b`).test(sql)) {
        throw AppError.conflict(`a table named ${n.table} exists`);
      }
    }
    return { migration: migration + 1, port: port + 1 };
  }

  /** Formatted by the project's own Prettier and settings, when it is installed (a dev tool). */
  private async formatted(file: GeneratedFile): Promise<GeneratedFile> {
    if (!file.path.endsWith('.ts')) return file;
    const prettier = await import('prettier').catch(() => undefined);
    if (!prettier) return file;
    const filepath = this.inside(file.path);
    const options = (await prettier.resolveConfig(filepath)) ?? {};
    return { ...file, content: await prettier.format(file.content, { ...options, filepath }) };
  }
}
