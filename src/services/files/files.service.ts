import { randomBytes } from 'node:crypto';
import { pipeline, Transform, type Readable } from 'node:stream';
import type { Logger } from 'pino';
import type { BusinessAuditWriter } from '../../platform/audit/business-audit.js';
import type { Principal } from '../../platform/auth/principal.js';
import { inTransaction } from '../../platform/db/transaction.js';
import { AppError, ERROR_CODES } from '../../platform/errors.js';
import type { Page } from '../../platform/http/envelope.js';
import { sanitizeFileName, storedContentType } from './file-name.js';
import type { FilesPorts } from './files.ports.js';
import type { FilesTables } from './files.tables.js';
import {
  findByKey,
  findFile,
  listFiles,
  releaseUsage,
  reserveUsage,
  usageOf,
  type FileRow,
  type FilesDb,
} from './files.repo.js';
import type { FileStorage } from './storage/storage.js';
import type { UrlSigner } from './url-signer.js';

/** A file part as @fastify/multipart hands it over (the fields the service reads). */
export interface IncomingFile {
  filename: string;
  mimetype: string;
  file: Readable & { truncated?: boolean };
}

export interface FilesServiceOptions {
  db: FilesDb;
  storage: FileStorage;
  signer: UrlSigner;
  ports: FilesPorts;
  audit: BusinessAuditWriter;
  /** UPLOAD_MAX_SIZE: bytes one file may hold. */
  maxSize: number;
  logger: Logger;
}

const MIB = 1024 * 1024;

/** The errors a client's body causes: the parser's, or its stream closing before its end. */
function isClientStreamError(err: Error): boolean {
  const code = (err as { code?: string }).code;
  return code === 'ERR_STREAM_PREMATURE_CLOSE' || /multipart|terminated early/i.test(err.message);
}

export class FilesService {
  constructor(private readonly o: FilesServiceOptions) {}

  /** The quota in bytes, or null when the tenant has none. */
  private async limitOf(tenantId: number): Promise<number | null> {
    const mb = await this.o.ports.quotaOf(tenantId);
    return mb > 0 ? mb * MIB : null;
  }

  private quotaExceeded(limit: number): AppError {
    return new AppError(ERROR_CODES.CONFLICT, 'storage quota exceeded', {
      quota_bytes: limit,
    });
  }

  /**
   * Before anything is read: refuses an upload whose declared length cannot fit the quota (the
   * length includes the multipart framing, so it errs towards refusing a file that barely fits;
   * the exact check is after the upload, on the stored size).
   */
  async checkQuota(tenantId: number, declaredLength: number | undefined): Promise<void> {
    const limit = await this.limitOf(tenantId);
    if (limit === null || declaredLength === undefined) return;
    const used = await usageOf(this.o.db, tenantId);
    if (used + declaredLength > limit) throw this.quotaExceeded(limit);
  }

  /**
   * Streams the file to the storage under a fresh random key, then records it and its size
   * against the quota in one transaction. Whatever fails after the bytes are stored (too
   * large, over quota, the database) removes them again: nothing is left that no row names.
   */
  async store(principal: Principal, part: IncomingFile) {
    const key = randomBytes(16).toString('hex');
    const name = sanitizeFileName(part.filename);
    const contentType = storedContentType(part.mimetype);
    let size = 0;
    const counted = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        size += chunk.length;
        callback(null, chunk);
      },
    });
    // An error of the client's stream (a malformed or cut-off body) is the client's 400; an
    // error of the storage alone is ours. The parser may raise it before this code runs (on a
    // tick between handing over the part and here), so the stream's state is read too.
    let clientError: Error | undefined;
    part.file.on('error', (err) => (clientError = err));
    if (part.file.errored || part.file.destroyed) clientError ??= new Error('part failed');
    // pipeline, not pipe: a source that already failed or closed ends `counted` with an error
    // instead of leaving the storage waiting for bytes that never come.
    pipeline(part.file, counted, (err) => {
      if (err && isClientStreamError(err)) clientError ??= err;
    });
    try {
      if (clientError) throw clientError;
      await this.o.storage.put(key, counted, contentType);
      if (clientError) throw clientError;
    } catch (err) {
      await this.o.storage.delete(key).catch(() => undefined);
      if (!clientError) throw err;
      throw new AppError(ERROR_CODES.BAD_REQUEST, 'malformed multipart body');
    }
    try {
      // @fastify/multipart stops at the size limit without an error: the stored object is
      // a truncated prefix, never to be kept.
      if (part.file.truncated) {
        throw new AppError(
          ERROR_CODES.BODY_TOO_LARGE,
          `a file may hold at most ${this.o.maxSize} bytes`,
          { max_size: this.o.maxSize },
        );
      }
      const limit = await this.limitOf(principal.tenantId);
      const row = await inTransaction(this.o.db, async (trx) => {
        if (!(await reserveUsage(trx, principal.tenantId, size, limit))) {
          throw this.quotaExceeded(limit!);
        }
        return trx
          .insertInto('files_objects')
          .values({
            tenant_id: principal.tenantId,
            storage_key: key,
            name,
            content_type: contentType,
            size,
            uploaded_by: principal.userId,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
      });
      this.o.logger.info({ file_id: row.id, size, tenant_id: row.tenant_id }, 'file uploaded');
      return this.view(row);
    } catch (err) {
      await this.o.storage.delete(key).catch((cause: unknown) => {
        this.o.logger.error({ err: cause, key }, 'could not remove a refused upload');
      });
      throw err;
    }
  }

  /** The file with a fresh link. */
  view(row: FileRow) {
    const link = this.o.signer.sign(row.storage_key);
    return {
      id: Number(row.id),
      name: row.name,
      size: Number(row.size),
      content_type: row.content_type,
      uploaded_by: Number(row.uploaded_by),
      created_at: new Date(row.created_at).toISOString(),
      url: link.url,
      expires_at: link.expiresAt.toISOString(),
    };
  }

  /** A tenant's file the caller may reach: their own, or any with `mayReachOthers`. */
  async reachable(principal: Principal, id: number, mayReachOthers: boolean): Promise<FileRow> {
    const row = await findFile(this.o.db, principal.tenantId, id);
    // Someone else's file without the code reads as absent: no confirmation it exists.
    if (!row || (!mayReachOthers && Number(row.uploaded_by) !== principal.userId)) {
      throw new AppError(ERROR_CODES.NOT_FOUND, 'file not found');
    }
    return row;
  }

  /** The tenant's stored bytes and its quota in bytes (0: unlimited), read now. */
  async usage(tenantId: number) {
    const [used, limit] = await Promise.all([usageOf(this.o.db, tenantId), this.limitOf(tenantId)]);
    return { used_bytes: used, quota_bytes: limit ?? 0 };
  }

  async list(tenantId: number, page: Page) {
    const { rows, total } = await listFiles(this.o.db, tenantId, page);
    return { list: rows.map((row) => this.view(row)), total };
  }

  /**
   * Deletes the row and its usage with a business-audit entry in one transaction, then the
   * bytes: a failure there leaves an unreachable object (logged), never a row without bytes.
   */
  async delete(principal: Principal, id: number, mayDeleteOthers: boolean): Promise<void> {
    const row = await inTransaction(this.o.db, async (trx) => {
      const file = await trx
        .selectFrom('files_objects')
        .selectAll()
        .where('tenant_id', '=', principal.tenantId)
        .where('id', '=', id)
        .forUpdate()
        .executeTakeFirst();
      if (!file || (!mayDeleteOthers && Number(file.uploaded_by) !== principal.userId)) {
        throw new AppError(ERROR_CODES.NOT_FOUND, 'file not found');
      }
      if (await this.o.ports.isHeld?.<FilesTables>(principal.tenantId, id, trx)) {
        throw new AppError(ERROR_CODES.CONFLICT, 'the file is attached to a live request');
      }
      await trx.deleteFrom('files_objects').where('id', '=', id).execute();
      await releaseUsage(trx, principal.tenantId, Number(file.size));
      await this.o.audit.write(trx as never, {
        tenantId: principal.tenantId,
        actorId: principal.userId,
        actorName: principal.username,
        action: 'delete',
        targetType: 'file',
        targetIds: [id],
        before: { name: file.name, size: Number(file.size), content_type: file.content_type },
        after: null,
        summary: `deleted file ${file.name}`,
      });
      return file;
    });
    await this.o.storage.delete(row.storage_key).catch((err: unknown) => {
      this.o.logger.error({ err, key: row.storage_key }, 'file row deleted, object not removed');
    });
  }

  /**
   * Takes back an upload the same request then turned out to be wrong for (a second file part):
   * the row, its usage and the bytes, as if it had never been stored. Not audited, as the upload
   * was not.
   */
  async discard(tenantId: number, id: number): Promise<void> {
    const row = await inTransaction(this.o.db, async (trx) => {
      const file = await trx
        .deleteFrom('files_objects')
        .where('tenant_id', '=', tenantId)
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst();
      if (file) await releaseUsage(trx, tenantId, Number(file.size));
      return file;
    });
    // A failure here leaves an object no row names: the orphan sweep removes it.
    if (row) await this.o.storage.delete(row.storage_key).catch(() => undefined);
  }

  /** What a verified link serves: the row (type, name) and the bytes; null when either is gone. */
  async download(key: string): Promise<{ row: FileRow; body: Readable } | null> {
    const row = await findByKey(this.o.db, key);
    if (!row) return null;
    const body = await this.o.storage.get(key);
    return body ? { row, body } : null;
  }
}
