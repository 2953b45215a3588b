import type { Readable } from 'node:stream';

/**
 * Where uploaded bytes live. Keys are the service's own random hex (`isStorageKey`), never a
 * client's name: no implementation has to defend against path traversal in them.
 */
export interface FileStorage {
  readonly kind: 'local' | 's3';
  /** Streams `body` to `key` (never buffered whole); the returned promise settles when stored. */
  put(key: string, body: Readable, contentType: string): Promise<void>;
  /** The stored bytes, or null when the key holds nothing. */
  get(key: string): Promise<Readable | null>;
  /**
   * The keys of every object last written before `before`, in no particular order: the orphan
   * sweep compares them with the rows (an upload cut off between its bytes and its row).
   */
  keysBefore(before: Date): AsyncIterable<string>;
  /** Removes `key`; nothing stored there is not an error. */
  delete(key: string): Promise<void>;
  /** Readiness: the directory or bucket is reachable. */
  ping(): Promise<void>;
  close(): Promise<void>;
}
