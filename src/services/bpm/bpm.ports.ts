import type { Kysely } from 'kysely';
import type { BearerVerifier } from '../../platform/auth/guard.js';
import type { AssigneeDirectory, FileCatalog } from './engine/index.js';

/**
 * What the BPM service needs from elsewhere, declared here so that it imports no other service:
 * the composition root (src/start.ts) hands it the auth service's bearer verifier and the
 * identity service's directory, which fit these types.
 */

/** What BPM needs to know of an initiator or a starter. */
export interface UserProfile {
  id: number;
  /** The name the process log records for the user's own entries (the start of an instance). */
  username: string;
  deptId: number | null;
  roleIds: number[];
  active: boolean;
}

/** A colleague as pickers and names show them (`user` form fields, stand-ins). */
export interface Person {
  id: number;
  name: string;
  deptId: number | null;
  deptName: string | null;
  active: boolean;
}

/** Identity lookups of one tenant: the engine's assignee directory, profiles and pickers. */
export interface BpmDirectory extends AssigneeDirectory {
  profile(userId: number): Promise<UserProfile | undefined>;
  /** The roles among `ids` that exist in the tenant (publishing refuses rules naming others). */
  knownRoles(ids: number[]): Promise<number[]>;
  /** By `keyword` (active people, at most `limit`) or by `ids` (inactive ones too, flagged). */
  people(query: { keyword?: string; ids?: number[]; limit: number }): Promise<Person[]>;
  departmentList(): Promise<{ id: number; name: string; parentId: number | null }[]>;
}

/**
 * The directory of a tenant; `on` is the caller's transaction, so a caller holding a
 * connection never waits for a second one from the same pool.
 */
export type DirectoryOf = <DB>(tenantId: number, on?: Kysely<DB>) => BpmDirectory;

/** An uploaded file as a form's reader sees it, with a fresh signed download link. */
export interface FileLink {
  id: number;
  name: string;
  size: number;
  content_type: string;
  uploaded_by: number;
  url: string;
  expires_at: string;
}

/** One tenant's uploaded files (the files service): `file` fields' checks and links. */
export interface BpmFiles extends FileCatalog {
  /** The files among `ids` with fresh signed links, in the order of `ids`. */
  links(ids: number[]): Promise<FileLink[]>;
}

/** A notice for users' in-app inboxes (the system service keeps them). */
export interface InboxNotice {
  tenantId: number;
  userIds: readonly number[];
  category: string;
  title: string;
  body: string;
  link: string | null;
}

export interface BpmPorts {
  /** Checks a bearer token as the auth service does (signature, expiry, session, user). */
  verifyBearer: BearerVerifier;
  directoryOf: DirectoryOf;
  filesOf: FilesOf;
  /** Puts BPM's notices in the users' inboxes, whatever NOTIFY_API_BASE says. Unset: no copy. */
  inbox?: { deliver(notice: InboxNotice): Promise<void> };
  /**
   * The current text of a notice template (`bpm.todo`, …) filled with `params`. Unset: BPM's
   * built-in texts.
   */
  renderText?(
    key: string,
    params: Readonly<Record<string, string | number>>,
  ): Promise<{ title: string; body: string }>;
}

/** The files of a tenant; `on` is the caller's transaction (as for `DirectoryOf`). */
export type FilesOf = <DB>(tenantId: number, on?: Kysely<DB>) => BpmFiles;
