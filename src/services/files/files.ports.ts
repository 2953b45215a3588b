import type { Kysely } from 'kysely';

/**
 * What the files service needs from others, fitted in src/start.ts: never their tables.
 */
export interface FilesPorts {
  /** The tenant's storage quota in MiB (identity's `storage_quota_mb`); 0 means unlimited. */
  quotaOf(tenantId: number): Promise<number>;
  /**
   * Whether something still holds the file (BPM: a live request that attached it); a held file
   * is not deleted (409). Unset: nothing holds files. `on` is the caller's transaction.
   */
  isHeld?<DB>(tenantId: number, fileId: number, on?: Kysely<DB>): Promise<boolean>;
}
