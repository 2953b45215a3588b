import { readFileSync } from 'node:fs';
import type { Kernel } from './platform/kernel.js';
import { SERVICE_NAMES } from './config/settings.js';
import { buildService } from './start.js';

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
};

/**
 * The published OpenAPI 3.1 document: every service's routes, generated from their zod schemas,
 * merged with the gateway's own endpoints. `npm run openapi` writes it to docs/openapi.json; a
 * test fails when the committed copy drifts from the code.
 */
export async function buildOpenApiDocument(kernel: Kernel): Promise<Document> {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  const paths: Document = { ...GATEWAY_PATHS };
  const schemas: Document = {};
  for (const name of SERVICE_NAMES) {
    const { app } = await buildService(name, kernel);
    await app.ready();
    const doc = app.swagger() as Document;
    Object.assign(paths, doc.paths);
    Object.assign(schemas, doc.components?.schemas);
    await app.close();
  }
  const sortedPaths = Object.fromEntries(
    Object.entries(paths).sort(([a], [b]) => a.localeCompare(b)),
  );
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
      ...(Object.keys(schemas).length > 0 ? { schemas } : {}),
    },
    paths: sortedPaths,
  };
}
