import { OAUTH2_PATHS } from './openapi-oauth2.js';
import { readFileSync } from 'node:fs';
import type { Kernel } from './platform/kernel.js';
import type { Settings } from './config/settings.js';
import { buildService, SERVICE_NAMES } from './start.js';

export const OPENAPI_PATH = new URL('../docs/openapi.json', import.meta.url);

type Document = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The gateway's own endpoints, which no service declares. */
const GATEWAY_PATHS: Document = {
  '/api/v1/health/ready': {
    get: {
      tags: ['gateway'],
      summary: 'Readiness of every service',
      security: [],
      responses: {
        200: {
          description: '`data = {status: "ready", services: {<name>: {status, latency_ms}}}`',
        },
        503: { description: 'a service is down: code 50300, `data.status = "degraded"`' },
      },
    },
  },
  '/api/v1/openapi.json': {
    get: {
      tags: ['gateway'],
      summary: 'This document (OpenAPI 3.1), as the running platform serves it',
      security: [],
      responses: { 200: { description: 'the OpenAPI document itself, not in the envelope' } },
    },
  },
};

/** Settings with every optional route on (external sign-in with a GitHub provider unless one is set, the code generator's write), for the document. */
function documentedSettings(settings: Settings): Settings {
  const external = settings.auth.externalLogin;
  return {
    ...settings,
    // Likewise the code generator's write route, which exists only where it is turned on.
    codegen: { ...settings.codegen, writeEnabled: true },
    auth: {
      ...settings.auth,
      externalLogin: {
        ...external,
        enabled: true,
        github: external.github ?? {
          clientId: 'documentation',
          clientSecret: 'documentation',
          baseUrl: 'https://github.com',
          apiUrl: 'https://api.github.com',
        },
      },
    },
  };
}

/**
 * The published OpenAPI 3.1 document: every service's routes, generated from their zod schemas,
 * merged with the gateway's own endpoints. `npm run openapi` writes it to docs/openapi.json; a
 * test fails when the committed copy drifts from the code.
 */
export async function buildOpenApiDocument(kernel: Kernel): Promise<Document> {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  const paths: Document = { ...GATEWAY_PATHS, ...OAUTH2_PATHS };
  const schemas: Document = {};
  // External sign-in routes exist only while it is configured; the document shows them always.
  const documented: Kernel = { ...kernel, settings: documentedSettings(kernel.settings) };
  for (const name of SERVICE_NAMES) {
    const { app } = await buildService(name, documented);
    await app.ready();
    const doc = app.swagger() as Document;
    Object.assign(paths, doc.paths);
    Object.assign(schemas, doc.components?.schemas);
    await app.close();
  }
  const sortedPaths = Object.fromEntries(
    Object.entries(paths).sort(([a], [b]) => a.localeCompare(b)),
  );
  completeOperations(sortedPaths);
  return {
    openapi: '3.1.0',
    info: {
      title: 'Approva',
      version: pkg.version,
      description:
        'Every response is the envelope `{code, message, data}`; errors carry the application codes of docs/api.md. Reached through the gateway only.',
    },
    servers: [{ url: '/' }],
    security: [{ bearer: [] }],
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      responses: ERROR_RESPONSES,
      schemas: { ...schemas, ErrorEnvelope: ERROR_ENVELOPE },
    },
    paths: sortedPaths,
  };
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;

/** The error envelope every 4xx/5xx answer carries (docs/api.md, "Application error codes"). */
const ERROR_ENVELOPE: Document = {
  type: 'object',
  properties: {
    code: {
      type: 'integer',
      description: 'application error code; its first three digits are the HTTP status',
    },
    message: { type: 'string' },
    data: {
      description: 'null, or details; validation failures (40001, 40002) carry `fields`',
      anyOf: [
        { type: 'null' },
        {
          type: 'object',
          properties: {
            fields: {
              type: 'array',
              items: {
                type: 'object',
                properties: {
                  field: { type: 'string' },
                  rule: {
                    type: 'string',
                    enum: ['required', 'type', 'option', 'range', 'max_length', 'format'],
                  },
                  message: { type: 'string' },
                },
                required: ['field', 'rule', 'message'],
              },
            },
          },
          additionalProperties: true,
        },
      ],
    },
  },
  required: ['code', 'message', 'data'],
};

function errorResponse(description: string): Document {
  return {
    description,
    content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } },
  };
}

const ERROR_RESPONSES: Document = {
  BadRequest: errorResponse(
    'malformed request (40000) or validation failed (40001, `data.fields`)',
  ),
  Unauthorized: errorResponse('not authenticated, token invalid or expired (401xx)'),
  Forbidden: errorResponse('missing permission code or action not allowed (403xx)'),
  NotFound: errorResponse('not found, also for records of another tenant (40400)'),
  TooManyRequests: errorResponse('rate limited (42900, `Retry-After` header)'),
  Error: errorResponse('any other error, in the envelope'),
};

/**
 * `GET /api/v1/bpm/tasks/{id}/approve` → `postBpmTasksByIdApprove`: stable, unique per
 * operation, and readable in a generated client.
 */
export function operationIdOf(method: string, path: string): string {
  const words = path
    .replace(/^\/api\/v1\//, '/')
    .split('/')
    .filter((part) => part !== '')
    .map((part) => (part.startsWith('{') ? `by-${part.slice(1, -1)}` : part))
    .flatMap((part) => part.split(/[^A-Za-z0-9]+/))
    .filter((word) => word !== '');
  return [method, ...words]
    .map((word, i) => (i === 0 ? word : word[0]!.toUpperCase() + word.slice(1)))
    .join('');
}

/**
 * Done here, once for every route, rather than in each route schema: an operationId derived from
 * method and path (a route may set its own), and the error answers every operation can give.
 */
function completeOperations(paths: Document): void {
  for (const [path, item] of Object.entries(paths)) {
    for (const method of METHODS) {
      const op = (item as Document)[method] as Document | undefined;
      if (!op) continue;
      op.operationId ??= operationIdOf(method, path);
      for (const parameter of (op.parameters ?? []) as Document[]) describeInteger(parameter);
      const responses = (op.responses ??= {}) as Document;
      const ref = (name: string) => ({ $ref: `#/components/responses/${name}` });
      responses['400'] ??= ref('BadRequest');
      const isPublic = Array.isArray(op.security) && op.security.length === 0;
      if (!isPublic) {
        responses['401'] ??= ref('Unauthorized');
        responses['403'] ??= ref('Forbidden');
      }
      if (path.includes('{')) responses['404'] ??= ref('NotFound');
      responses['429'] ??= ref('TooManyRequests');
      responses['default'] ??= ref('Error');
    }
  }
}

/** The id pattern of src/platform/http/params.ts, as zod writes it into the schema. */
const ID_PATTERN_TEXT = '^[1-9]\\d{0,14}$';
const PAGE_PARAMETERS = new Set(['page', 'page_size']);

/**
 * Path ids and paging arrive as text and are parsed by the route schema, so zod describes them
 * as strings; a client sends integers. Say so, for generated clients.
 */
function describeInteger(parameter: Document): void {
  const schema = parameter.schema as Document | undefined;
  if (schema?.type !== 'string') return;
  if (schema.pattern === ID_PATTERN_TEXT) {
    parameter.schema = { type: 'integer', minimum: 1, maximum: 999_999_999_999_999 };
  } else if (parameter.in === 'query' && PAGE_PARAMETERS.has(parameter.name as string)) {
    parameter.schema = { type: 'integer', minimum: 1 };
  }
}
