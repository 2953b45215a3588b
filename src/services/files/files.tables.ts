import type { Generated } from 'kysely';

/** The files service's tables (migration 0022); only its code reads them. */
export type FilesTables = {
  files_objects: {
    id: Generated<number>;
    tenant_id: number;
    /** Random, never derived from the client's name: where the bytes are in the storage. */
    storage_key: string;
    /** The client's name, sanitized, for display and Content-Disposition only. */
    name: string;
    content_type: string;
    size: number;
    uploaded_by: number;
    created_at: Generated<Date>;
  };
  /** Bytes stored per tenant: the row the quota check locks and updates conditionally. */
  files_usage: {
    tenant_id: number;
    bytes: number;
  };
};
