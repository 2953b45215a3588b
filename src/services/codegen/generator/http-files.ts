import { filterColumns, keywordColumns, TYPE_FACTS } from './columns.js';
import type { ModulePlacement, ModuleSpec, Names } from './spec.js';

const FILTERS: Record<string, string> = {
  integerFilter: `const integerFilter = z
  .string()
  .regex(/^-?\\d{1,10}$/, 'must be an integer')
  .transform(Number)
  .refine((n) => n >= -2_147_483_648 && n <= 2_147_483_647, 'out of range')
  .optional();`,
  booleanFilter: `const booleanFilter = z
  .enum(['true', 'false'])
  .transform((v) => v === 'true')
  .optional();`,
  dateFilter: 'const dateFilter = z.iso.date().optional();',
};

const described = (text: string | undefined) => (text ? `.describe(${JSON.stringify(text)})` : '');

/** The request and response schemas: they validate, and they feed the OpenAPI document. */
export function schemaFile(spec: ModuleSpec, n: Names): string {
  const fields = spec.columns.map((c) => {
    const optional = c.required ? '' : '.nullable().optional()';
    return `  ${c.name}: ${TYPE_FACTS[c.type].body(c)}${optional}${described(c.description)},`;
  });
  const keyword = keywordColumns(spec.columns);
  const filters = filterColumns(spec.columns);
  const filterKinds = [...new Set(filters.map((c) => TYPE_FACTS[c.type].filter!))];
  const query = [
    '  ...pageQuery,',
    ...(keyword.length > 0
      ? [`  keyword: keywordQuery.describe('part of ${keyword.map((c) => c.name).join(', ')}'),`]
      : []),
    ...filters.map((c) => `  ${c.name}: ${TYPE_FACTS[c.type].filter!},`),
  ];
  const view = spec.columns.map((c) => {
    const type = TYPE_FACTS[c.type].view;
    return `  ${c.name}: ${type}${c.required ? '' : '.nullable()'},`;
  });
  const paramsImports = [...(keyword.length > 0 ? ['keywordQuery'] : []), 'timestamp'].join(', ');
  return `import { z } from 'zod';
import { pageQuery } from '../../platform/http/envelope.js';
import { ${paramsImports} } from '../../platform/http/params.js';

/** The fields a client sets: all of them to create a ${n.words}, any of them to change one. */
const fields = {
${fields.join('\n')}
};

export const create${n.Entity}Body = z.object(fields);
export type Create${n.Entity}Input = z.infer<typeof create${n.Entity}Body>;
export const update${n.Entity}Body = create${n.Entity}Body.partial();
export type Update${n.Entity}Input = z.infer<typeof update${n.Entity}Body>;
${filterKinds.map((k) => `\n${FILTERS[k]}`).join('\n')}

export const list${n.Plural}Query = z.object({
${query.join('\n')}
});
export type List${n.Plural}Query = z.infer<typeof list${n.Plural}Query>;

export const ${n.entityCamel}View = z.object({
  id: z.number().int(),
  tenant_id: z.number().int(),
${view.join('\n')}
  created_by: z.number().int(),
  created_at: timestamp,
  updated_at: timestamp,
});
export type ${n.Entity}View = z.infer<typeof ${n.entityCamel}View>;
`;
}

/** The service: one transaction per change, each change in the business audit. */
export function serviceFile(spec: ModuleSpec, n: Names): string {
  const converted = spec.columns
    .filter((c) => TYPE_FACTS[c.type].toView)
    .map((c) => {
      const convert = TYPE_FACTS[c.type].toView!;
      return c.required
        ? `  ${c.name}: ${convert(`row.${c.name}`)},`
        : `  ${c.name}: row.${c.name} === null ? null : ${convert(`row.${c.name}`)},`;
    });
  return `import type { BusinessAuditWriter } from '../../platform/audit/business-audit.js';
import type { Principal } from '../../platform/auth/principal.js';
import { inTransaction } from '../../platform/db/transaction.js';
import { AppError } from '../../platform/errors.js';
import { pageResult, parsePage } from '../../platform/http/envelope.js';
import type { ${n.Service}Db } from './${n.service}.tables.js';
import {
  delete${n.Entity},
  find${n.Entity},
  insert${n.Entity},
  list${n.Plural},
  update${n.Entity},
  type ${n.Entity}Row,
} from './${n.file}.repo.js';
import type {
  Create${n.Entity}Input,
  List${n.Plural}Query,
  ${n.Entity}View,
  Update${n.Entity}Input,
} from './${n.file}.schema.js';

const toView = (row: ${n.Entity}Row): ${n.Entity}View => ({
  ...row,
${converted.join('\n')}
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});

/** The ${n.pluralWords} of the caller's tenant; another tenant's id is not found (404). */
export class ${n.Plural}Service {
  constructor(private readonly o: { db: ${n.Service}Db; audit: BusinessAuditWriter }) {}

  async list(principal: Principal, query: List${n.Plural}Query) {
    const page = parsePage(query);
    const { rows, total } = await list${n.Plural}(this.o.db, principal.tenantId, query, page);
    return pageResult(rows.map(toView), total, page);
  }

  async get(principal: Principal, id: number): Promise<${n.Entity}View> {
    const row = await find${n.Entity}(this.o.db, principal.tenantId, id);
    if (!row) throw AppError.notFound('${n.words}');
    return toView(row);
  }

  create(principal: Principal, input: Create${n.Entity}Input): Promise<${n.Entity}View> {
    return inTransaction(this.o.db, async (trx) => {
      const id = await insert${n.Entity}(trx, {
        ...input,
        tenant_id: principal.tenantId,
        created_by: principal.userId,
      });
      const after = toView((await find${n.Entity}(trx, principal.tenantId, id))!);
      await this.audit(trx, principal, 'create', id, null, after);
      return after;
    });
  }

  update(principal: Principal, id: number, input: Update${n.Entity}Input): Promise<${n.Entity}View> {
    return inTransaction(this.o.db, async (trx) => {
      const before = await this.locked(trx, principal, id);
      await update${n.Entity}(trx, principal.tenantId, id, input);
      const after = toView((await find${n.Entity}(trx, principal.tenantId, id))!);
      await this.audit(trx, principal, 'update', id, before, after);
      return after;
    });
  }

  remove(principal: Principal, id: number): Promise<void> {
    return inTransaction(this.o.db, async (trx) => {
      const before = await this.locked(trx, principal, id);
      await delete${n.Entity}(trx, principal.tenantId, id);
      await this.audit(trx, principal, 'delete', id, before, null);
    });
  }

  private async locked(db: ${n.Service}Db, principal: Principal, id: number) {
    const row = await find${n.Entity}(db, principal.tenantId, id, true);
    if (!row) throw AppError.notFound('${n.words}');
    return toView(row);
  }

  private audit(
    trx: ${n.Service}Db,
    principal: Principal,
    action: 'create' | 'update' | 'delete',
    id: number,
    before: ${n.Entity}View | null,
    after: ${n.Entity}View | null,
  ) {
    return this.o.audit.write(trx as never, {
      tenantId: principal.tenantId,
      actorId: principal.userId,
      actorName: principal.username,
      action,
      targetType: '${n.entity}',
      targetIds: [id],
      before,
      after,
      summary: \`\${action} ${n.words} \${id}\`,
    });
  }
}
`;
}

export function routesFile(n: Names): string {
  const route = (
    method: string,
    path: string,
    code: string,
    summary: string,
    schema: string[],
    handler: string,
  ) => `  app.${method}(
    '${path}',
    {
      onRequest: requirePermission('${n.permission}:${code}'),
      schema: {
        tags,
        summary: '${summary}',
${schema.map((line) => `        ${line},`).join('\n')}
      },
    },
    ${handler},
  );`;
  const one = `${n.path}/:id`;
  return `import { z } from 'zod';
import { principalOf } from '../../platform/auth/guard.js';
import { envelopeOf, listOf, ok } from '../../platform/http/envelope.js';
import { idParams } from '../../platform/http/params.js';
import type { HttpApp } from '../../platform/http/server.js';
import { requirePermission } from './${n.service}.permissions.js';
import {
  create${n.Entity}Body,
  list${n.Plural}Query,
  ${n.entityCamel}View,
  update${n.Entity}Body,
} from './${n.file}.schema.js';
import type { ${n.Plural}Service } from './${n.file}.service.js';

const tags = ['${n.service}'];

export function register${n.Plural}Routes(app: HttpApp, service: ${n.Plural}Service): void {
${[
  route(
    'get',
    n.path,
    'list',
    `${n.Plural} of the tenant, newest first`,
    [
      'querystring: list' + n.Plural + 'Query',
      `response: { 200: envelopeOf(listOf(${n.entityCamel}View)) }`,
    ],
    `async (request) => ok(await service.list(principalOf(request), request.query))`,
  ),
  route(
    'get',
    one,
    'list',
    `One ${n.words}`,
    ['params: idParams', `response: { 200: envelopeOf(${n.entityCamel}View) }`],
    `async (request) => ok(await service.get(principalOf(request), request.params.id))`,
  ),
  route(
    'post',
    n.path,
    'create',
    `Create a ${n.words}`,
    [`body: create${n.Entity}Body`, `response: { 200: envelopeOf(${n.entityCamel}View) }`],
    `async (request) => ok(await service.create(principalOf(request), request.body))`,
  ),
  route(
    'put',
    one,
    'update',
    `Change a ${n.words} (partial)`,
    [
      'params: idParams',
      `body: update${n.Entity}Body`,
      `response: { 200: envelopeOf(${n.entityCamel}View) }`,
    ],
    `async (request) =>\n      ok(await service.update(principalOf(request), request.params.id, request.body))`,
  ),
  route(
    'delete',
    one,
    'delete',
    `Delete a ${n.words}`,
    ['params: idParams', 'response: { 200: envelopeOf(z.null()) }'],
    `async (request) => {\n      await service.remove(principalOf(request), request.params.id);\n      return ok(null);\n    }`,
  ),
].join('\n')}
}
`;
}

export function permissionsFile(n: Names): string {
  const constant = `${n.SERVICE}_PERMISSIONS`;
  const spec = (code: string, description: string, routes: string[]) => `  {
    code: '${n.permission}:${code}',
    description: '${description}',
    routes: [${routes.map((r) => `'${r}'`).join(', ')}],
  },`;
  return `import { permissionGuards, type PermissionSpec } from '../../platform/auth/permissions.js';

/** The permission codes the ${n.service} service declares: what each allows, the routes that need it. */
export const ${constant} = [
${spec('list', `List and read ${n.pluralWords}`, [`GET ${n.path}`, `GET ${n.path}/:id`])}
${spec('create', `Create ${n.pluralWords}`, [`POST ${n.path}`])}
${spec('update', `Change ${n.pluralWords}`, [`PUT ${n.path}/:id`])}
${spec('delete', `Delete ${n.pluralWords}`, [`DELETE ${n.path}/:id`])}
] as const satisfies readonly PermissionSpec[];

export const { requirePermission } = permissionGuards(${constant}.map((p) => p.code));
`;
}

export function appFile(n: Names): string {
  return `import { sql } from 'kysely';
import { trustGatewayHeaders } from '../../platform/auth/guard.js';
import { registerReadiness } from '../../platform/http/health.js';
import type { HttpApp } from '../../platform/http/server.js';
import { createServiceApp } from '../../platform/http/service-app.js';
import type { Kernel } from '../../platform/kernel.js';
import type { ${n.Service}Tables } from './${n.service}.tables.js';
import { register${n.Plural}Routes } from './${n.file}.routes.js';
import { ${n.Plural}Service } from './${n.file}.service.js';

/** The ${n.service} service: the ${n.pluralWords} of each tenant, behind the gateway. */
export async function build${n.Service}App(kernel: Kernel): Promise<HttpApp> {
  const { settings, cache } = kernel;
  const db = kernel.database.db.withTables<${n.Service}Tables>();
  const { app } = await createServiceApp(kernel, '${n.service}');
  trustGatewayHeaders(app, { signingSecret: settings.gateway.signingSecret, nonces: cache });
  registerReadiness(app, {
    database: () => sql\`SELECT 1\`.execute(db),
    cache: () => cache.ping(),
  });
  register${n.Plural}Routes(app, new ${n.Plural}Service({ db, audit: kernel.businessAudit }));
  return app;
}
`;
}

export function indexFile(n: Names, at: ModulePlacement): string {
  return `/**
 * The ${n.service} service's public face (written by the code generator): the ${n.pluralWords} of
 * each tenant at \`${n.path}\`. Needs nothing from other modules. No jobs.
 */
import type { ServiceModule } from '../../platform/module.js';
import { build${n.Service}App } from './${n.service}.app.js';
import { ${n.SERVICE}_PERMISSIONS } from './${n.service}.permissions.js';

export const ${n.service}Module: ServiceModule<Record<string, never>, '${n.service}'> = {
  name: '${n.service}',
  permissions: ${n.SERVICE}_PERMISSIONS,
  defaultPort: ${at.port},
  routes: [{ prefix: '/api/v1/${n.service}' }],
  jobs: [],
  async create(kernel) {
    return { app: await build${n.Service}App(kernel), jobs: [] };
  },
};
`;
}
