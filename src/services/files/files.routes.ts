import multipart from '@fastify/multipart';
import { principalOf } from '../../platform/auth/guard.js';
import { hasPermission } from '../../platform/auth/principal.js';
import { AppError, ERROR_CODES } from '../../platform/errors.js';
import { ok, pageQuery, pageResult, parsePage } from '../../platform/http/envelope.js';
import { idParams } from '../../platform/http/params.js';
import type { HttpApp } from '../../platform/http/server.js';
import { contentDisposition, servedInline } from './file-name.js';
import { requirePermission } from './files.permissions.js';
import {
  downloadParams,
  downloadQuery,
  fileEnvelope,
  fileListEnvelope,
  linkEnvelope,
  usageEnvelope,
} from './files.schema.js';
import type { FilesService } from './files.service.js';
import type { UrlSigner } from './url-signer.js';
import { z } from 'zod';

const tags = ['files'];

/**
 * What the multipart parser throws before the file starts is the client's malformed body (a
 * 400, 40000), or one of its limits (413 for sizes); never a 500.
 */
export function clientMultipartError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  const status = (err as { statusCode?: number }).statusCode;
  if (status === 413) return new AppError(ERROR_CODES.BODY_TOO_LARGE);
  return new AppError(ERROR_CODES.BAD_REQUEST, 'malformed multipart body');
}

const oneFileOnly = () =>
  new AppError(ERROR_CODES.VALIDATION, undefined, {
    fields: [{ field: 'file', rule: 'required', message: 'exactly one file is required' }],
  });

/** The one upload path: the gateway streams its body (files' module route `streamsBody`). */
export const UPLOAD_PATH = '/api/v1/files';

export async function registerFilesRoutes(
  app: HttpApp,
  service: FilesService,
  signer: UrlSigner,
  maxSize: number,
): Promise<void> {
  // One file per request, nothing else of size: the file's own limit is checked per request.
  await app.register(multipart, {
    limits: { fileSize: maxSize, files: 1, fields: 4, parts: 6, fieldSize: 1024 },
  });

  app.post(
    UPLOAD_PATH,
    {
      schema: {
        tags,
        summary: 'Upload one file (multipart/form-data, field `file`); any signed-in user',
        consumes: ['multipart/form-data'],
        response: { 200: fileEnvelope },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      if (!request.isMultipart()) {
        throw new AppError(ERROR_CODES.UNSUPPORTED_MEDIA_TYPE, 'send multipart/form-data');
      }
      const declared = Number(request.headers['content-length']);
      await service.checkQuota(
        principal.tenantId,
        Number.isSafeInteger(declared) && declared > 0 ? declared : undefined,
      );
      // The parts in order: the one file is stored as it streams; a second file part makes the
      // parser raise its files limit, and the first is taken back.
      let stored: Awaited<ReturnType<FilesService['store']>> | undefined;
      try {
        for await (const part of request.parts()) {
          if (part.type === 'file') stored = await service.store(principal, part);
        }
      } catch (err) {
        if (stored) await service.discard(principal.tenantId, stored.id);
        if ((err as { code?: string }).code === 'FST_FILES_LIMIT') throw oneFileOnly();
        throw clientMultipartError(err);
      }
      if (!stored) throw oneFileOnly();
      return ok(stored);
    },
  );

  app.get(
    UPLOAD_PATH,
    {
      preHandler: requirePermission('system:file:list'),
      schema: {
        tags,
        summary: "The tenant's files, newest first",
        querystring: z.object(pageQuery),
        response: { 200: fileListEnvelope },
      },
    },
    async (request) => {
      const page = parsePage(request.query);
      const { list, total } = await service.list(principalOf(request).tenantId, page);
      return ok(pageResult(list, total, page));
    },
  );

  app.get(
    `${UPLOAD_PATH}/usage`,
    {
      preHandler: requirePermission('system:file:list'),
      schema: {
        tags,
        summary: "The tenant's stored bytes against its quota (0: unlimited)",
        response: { 200: usageEnvelope },
      },
    },
    async (request) => ok(await service.usage(principalOf(request).tenantId)),
  );

  app.get(
    `${UPLOAD_PATH}/:id/url`,
    {
      schema: {
        tags,
        summary: 'A fresh signed link to a file (own files; others with system:file:list)',
        params: idParams,
        response: { 200: linkEnvelope },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const others = hasPermission(principal, 'system:file:list');
      const row = await service.reachable(principal, request.params.id, others);
      const link = signer.sign(row.storage_key);
      return ok({ url: link.url, expires_at: link.expiresAt.toISOString() });
    },
  );

  app.delete(
    `${UPLOAD_PATH}/:id`,
    {
      schema: {
        tags,
        summary: 'Delete a file (own files; others with system:file:delete); 409 while held',
        params: idParams,
        response: { 200: z.object({ code: z.literal(200), message: z.string(), data: z.null() }) },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const others = hasPermission(principal, 'system:file:delete');
      await service.delete(principal, request.params.id, others);
      return ok(null);
    },
  );

  app.get(
    '/uploads/:key',
    {
      schema: {
        tags,
        summary: 'Download through a signed link; a bare, tampered or expired link is 404',
        security: [],
        params: downloadParams,
        querystring: downloadQuery,
      },
    },
    async (request, reply) => {
      const { key } = request.params;
      const { expires, sig } = request.query;
      // One answer for every failure: a 401/403 would confirm that the key exists.
      const found = signer.verify(key, expires, sig) ? await service.download(key) : null;
      if (!found) throw new AppError(ERROR_CODES.NOT_FOUND);
      const { row, body } = found;
      const inline = servedInline(row.content_type);
      return (
        reply
          .header('content-type', row.content_type)
          .header('content-length', String(row.size))
          .header(
            'content-disposition',
            contentDisposition(inline ? 'inline' : 'attachment', row.name),
          )
          .header('x-content-type-options', 'nosniff')
          // Even opened directly, a served file runs nothing and loads nothing.
          .header('content-security-policy', "default-src 'none'; sandbox")
          .header('cache-control', 'private, no-store')
          .send(body)
      );
    },
  );
}
