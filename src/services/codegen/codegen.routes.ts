import { principalOf, requirePlatformAdmin } from '../../platform/auth/guard.js';
import { ok } from '../../platform/http/envelope.js';
import type { HttpApp } from '../../platform/http/server.js';
import { requirePermission } from './codegen.permissions.js';
import {
  moduleSpecBody,
  previewEnvelope,
  statusEnvelope,
  writeEnvelope,
} from './codegen.schema.js';
import type { CodegenProject } from './project.js';

const tags = ['codegen'];

/**
 * Generated code runs for every tenant, so only platform administrators holding the code use
 * the generator. The write route exists only where CODEGEN_WRITE_ENABLED=true: elsewhere it is
 * a 404 like any unknown path.
 */
export function registerCodegenRoutes(
  app: HttpApp,
  project: CodegenProject,
  options: { writeEnabled: boolean },
): void {
  // What the console needs to know before it offers a write: whether the route exists, and where
  // it would write (named in the confirmation). Nothing is revealed to whoever cannot preview.
  app.get(
    '/api/v1/codegen/status',
    {
      onRequest: [requirePlatformAdmin, requirePermission('system:codegen:preview')],
      schema: {
        tags,
        summary: 'Whether this server writes generated modules, and into which directory',
        response: { 200: statusEnvelope },
      },
    },
    async () =>
      ok({
        write_enabled: options.writeEnabled,
        directory: options.writeEnabled ? project.root : null,
      }),
  );

  app.post(
    '/api/v1/codegen/preview',
    {
      onRequest: [requirePlatformAdmin, requirePermission('system:codegen:preview')],
      schema: {
        tags,
        summary: 'The files a table description would make, written nowhere',
        body: moduleSpecBody,
        response: { 200: previewEnvelope },
      },
    },
    async (request) => ok({ files: await project.preview(request.body) }),
  );
  if (!options.writeEnabled) return;
  app.post(
    '/api/v1/codegen/write',
    {
      onRequest: [requirePlatformAdmin, requirePermission('system:codegen:write')],
      schema: {
        tags,
        summary: 'Write a new service module into the project (CODEGEN_WRITE_ENABLED=true only)',
        body: moduleSpecBody,
        response: { 200: writeEnvelope },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const files = await project.write(request.body);
      request.log.info(
        { by: principal.username, service: request.body.service, files: files.length },
        'code generator wrote a module',
      );
      return ok({ directory: project.root, paths: files.map((f) => f.path) });
    },
  );
}
