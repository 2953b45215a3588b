import type { Kysely } from 'kysely';
import type { Kernel } from '../../platform/kernel.js';
import type { FilesTables } from './files.tables.js';
import { UrlSigner } from './url-signer.js';

/** A stored file as another service shows it: what it is, and a fresh signed link to it. */
export interface LinkedFile {
  id: number;
  name: string;
  size: number;
  content_type: string;
  uploaded_by: number;
  url: string;
  expires_at: string;
}

/** One tenant's files, by id: the adapter the files service gives BPM's `filesOf` port. */
export interface TenantFiles {
  /** The files among `ids` that exist in the tenant (a file field's checks). */
  files(ids: number[]): Promise<{ id: number; contentType: string; uploadedBy: number }[]>;
  /** The same, with fresh signed links, in the order of `ids` (unknown ids left out). */
  links(ids: number[]): Promise<LinkedFile[]>;
}

/**
 * Reads the files service's own table, always inside one tenant; signs with its own key. `on` is
 * the caller's transaction, so a caller holding a connection never waits for a second one.
 */
export function filesOfTenant(
  kernel: Kernel,
): <DB>(tenantId: number, on?: Kysely<DB>) => TenantFiles {
  const pool = kernel.database.db.withTables<FilesTables>();
  const uploads = kernel.settings.files;
  const signer = new UrlSigner(uploads.urlSignSecret, uploads.urlTtlSeconds);
  return (tenantId, on) => {
    const db = (on as Kysely<FilesTables> | undefined) ?? pool;
    return tenantFiles(db, tenantId, signer, on !== undefined);
  };
}

/**
 * In a caller's transaction the files are read `FOR SHARE`: a delete (which locks the row for
 * update and then asks whether a request holds it) and an attach that reads the file queue on
 * the row, so a request never holds a file deleted at the same moment.
 */
function tenantFiles(
  db: Kysely<FilesTables>,
  tenantId: number,
  signer: UrlSigner,
  inTransaction: boolean,
): TenantFiles {
  const rows = (ids: number[], share = false) => {
    if (ids.length === 0) return Promise.resolve([]);
    const q = db
      .selectFrom('files_objects')
      .selectAll()
      .where('tenant_id', '=', tenantId)
      .where('id', 'in', ids);
    return (share ? q.forShare() : q).execute();
  };
  return {
    async files(ids) {
      return (await rows(ids, inTransaction)).map((r) => ({
        id: r.id,
        contentType: r.content_type,
        uploadedBy: r.uploaded_by,
      }));
    },
    async links(ids) {
      const byId = new Map((await rows(ids)).map((r) => [r.id, r]));
      return ids.flatMap((id) => {
        const row = byId.get(id);
        if (!row) return [];
        const link = signer.sign(row.storage_key);
        return [
          {
            id: row.id,
            name: row.name,
            size: row.size,
            content_type: row.content_type,
            uploaded_by: row.uploaded_by,
            url: link.url,
            expires_at: link.expiresAt.toISOString(),
          },
        ];
      });
    },
  };
}
