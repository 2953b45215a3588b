import { migrationFile, repoFile, tablesFile } from './data-files.js';
import {
  appFile,
  indexFile,
  permissionsFile,
  routesFile,
  schemaFile,
  serviceFile,
} from './http-files.js';
import { namesOf, type ModulePlacement, type ModuleSpec } from './spec.js';
import { testFile } from './test-file.js';

export interface GeneratedFile {
  /** Relative to the project's root, with `/` separators. */
  path: string;
  content: string;
}

/**
 * The files of a new service module in the project's own layout: its folder (declaration,
 * permissions, tables, repo, service, schema, routes, app), its migration and its HTTP test.
 * The line that adds it to the module list is `addToModuleList`'s.
 */
export function generateModule(spec: ModuleSpec, at: ModulePlacement): GeneratedFile[] {
  const n = namesOf(spec);
  const folder = `src/services/${n.service}`;
  const number = String(at.migration).padStart(4, '0');
  return [
    { path: `${folder}/index.ts`, content: indexFile(n, at) },
    { path: `${folder}/${n.service}.permissions.ts`, content: permissionsFile(n) },
    { path: `${folder}/${n.service}.tables.ts`, content: tablesFile(spec, n, at) },
    { path: `${folder}/${n.service}.app.ts`, content: appFile(n) },
    { path: `${folder}/${n.file}.repo.ts`, content: repoFile(spec, n) },
    { path: `${folder}/${n.file}.service.ts`, content: serviceFile(spec, n) },
    { path: `${folder}/${n.file}.schema.ts`, content: schemaFile(spec, n) },
    { path: `${folder}/${n.file}.routes.ts`, content: routesFile(n) },
    { path: `migrations/${number}_${n.table}.sql`, content: migrationFile(spec, n) },
    { path: `test/${n.service}/${n.file}.int.test.ts`, content: testFile(spec, n) },
  ];
}

export const START_FILE = 'src/start.ts';
const LIST_END = /^\] as const;$/m;
const SERVICE_IMPORT = /^import .* from '\.\/services\/[a-z0-9]+\/index\.js';$/gm;

/**
 * src/start.ts with the module added: its import after the other modules' imports, and its
 * `wired(...)` line at the end of the only list of modules. Undefined when the file does not
 * have that shape (the caller refuses rather than guess).
 */
export function addToModuleList(start: string, spec: ModuleSpec): string | undefined {
  const n = namesOf(spec);
  const imports = [...start.matchAll(SERVICE_IMPORT)];
  const end = LIST_END.exec(start);
  const lastImport = imports.at(-1);
  if (!lastImport || !end) return undefined;
  const importAt = lastImport.index + lastImport[0].length;
  const line = `  wired(${n.service}Module, () => ({})),\n`;
  const statement = `\nimport { ${n.service}Module } from './services/${n.service}/index.js';`;
  return (
    start.slice(0, importAt) +
    statement +
    start.slice(importAt, end.index) +
    line +
    start.slice(end.index)
  );
}
