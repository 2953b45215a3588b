/**
 * The files service. Uploads go to `POST /api/v1/files`: the one call not made through
 * openapi-fetch, since fetch cannot report upload progress; it sends an XMLHttpRequest,
 * authenticated as the client's middleware does (bearer token, device id) and renewed the same
 * way on an expired token. The tenant's list, its usage, fresh links and deletes are hooks over
 * the generated client (the files page, `/system/files`).
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, data, EXPIRED, refreshOnce, signedOut } from './client';
import { ApiError, isCustomText } from './errors';
import type { Ok, Query } from './schemaTypes';
import type { operations } from './schema';
import { deviceId, readTokens } from './session';

/** `data` of an upload (docs/api.md, Files). */
export interface UploadedFile {
  id: number;
  name: string;
  size: number;
  content_type: string;
  uploaded_by: number;
  created_at: string;
  url: string;
  expires_at: string;
}

export interface UploadOptions {
  /** 0–100 as the body goes out. */
  onProgress?: (percent: number) => void;
  signal?: AbortSignal;
}

interface Answer {
  status: number;
  body: { code?: number; message?: string; data?: unknown } | null;
  statusText: string;
  /** An administrator's text for the code (see errors.ts). */
  custom: boolean;
}

function send(file: File, options: UploadOptions): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/api/v1/files');
    const tokens = readTokens();
    if (tokens) xhr.setRequestHeader('authorization', `Bearer ${tokens.access_token}`);
    xhr.setRequestHeader('x-device-id', deviceId());
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0)
        options.onProgress?.(Math.min(100, Math.round((e.loaded / e.total) * 100)));
    };
    xhr.onload = () => {
      let body: Answer['body'];
      try {
        body = JSON.parse(xhr.responseText) as Answer['body'];
      } catch {
        body = null;
      }
      const custom = isCustomText((name) => xhr.getResponseHeader(name));
      resolve({ status: xhr.status, body, statusText: xhr.statusText, custom });
    };
    xhr.onerror = () => reject(new ApiError(0, 0, 'network error', null));
    xhr.onabort = () => reject(new DOMException('aborted', 'AbortError'));
    if (options.signal) {
      if (options.signal.aborted) return xhr.abort();
      options.signal.addEventListener('abort', () => xhr.abort(), { once: true });
    }
    const body = new FormData();
    body.append('file', file, file.name);
    xhr.send(body);
  });
}

const codeOf = (a: Answer) => a.body?.code ?? a.status * 100;

/** Uploads one file as the signed-in user; an error answer is an ApiError (413, 409 quota...). */
export async function uploadFile(file: File, options: UploadOptions = {}): Promise<UploadedFile> {
  let answer = await send(file, options);
  if (answer.status === 401 && EXPIRED.has(codeOf(answer)) && readTokens()) {
    const renewed = await refreshOnce();
    if (!renewed) signedOut();
    else {
      options.onProgress?.(0);
      answer = await send(file, options);
    }
  }
  if (answer.status >= 200 && answer.status < 300 && answer.body?.data)
    return answer.body.data as UploadedFile;
  throw new ApiError(
    answer.status,
    codeOf(answer),
    answer.body?.message ?? answer.statusText,
    answer.body?.data ?? null,
    answer.custom,
  );
}

/** Whether a file's type is one of the accepted ones (`type/subtype` or `type/*`); none: any. */
export function isAccepted(contentType: string, accept: readonly string[] | undefined): boolean {
  if (!accept || accept.length === 0) return true;
  const type = (contentType || 'application/octet-stream').toLowerCase();
  return accept.some((a) => a === type || (a.endsWith('/*') && type.startsWith(a.slice(0, -1))));
}

/** A size in human units: 512 B, 1.5 KB, 12 MB (1024-based, as the server's limits are). */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let v = bytes / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i += 1;
  }
  return `${v >= 10 ? Math.round(v) : Math.round(v * 10) / 10} ${units[i]}`;
}

/** One file of the tenant as the list shows it, with a link that works until `expires_at`. */
export type StoredFile = Ok<operations['getFiles']>['list'][number];
export type FileQuery = Query<operations['getFiles']>;
/** The tenant's stored bytes against its quota in bytes (0: unlimited). */
export type FileUsage = Ok<operations['getFilesUsage']>;

/** Every key starts with `files`, so an upload or a delete refreshes the list and the usage. */
export const filesKeys = {
  all: ['files'] as const,
  list: (query: FileQuery) => ['files', 'list', query] as const,
  usage: ['files', 'usage'] as const,
};

/** A page of the tenant's files, newest first (`system:file:list`). */
export function useFiles(query: FileQuery) {
  return useQuery({
    queryKey: filesKeys.list(query),
    queryFn: () => data(api.GET('/api/v1/files', { params: { query } })),
    placeholderData: keepPreviousData,
  });
}

/** The tenant's storage usage and quota (`system:file:list`). */
export function useFileUsage() {
  return useQuery({
    queryKey: filesKeys.usage,
    queryFn: () => data(api.GET('/api/v1/files/usage')),
  });
}

/** A fresh signed link to a file: the list's own may have expired while the page stood open. */
export async function freshFileLink(id: number): Promise<string> {
  const link = await data(api.GET('/api/v1/files/{id}/url', { params: { path: { id } } }));
  return link.url;
}

function useFilesMutation<V, R>(fn: (v: V) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => client.invalidateQueries({ queryKey: filesKeys.all }),
  });
}

/** Uploads one file (with its progress) and refreshes the list and the usage. */
export function useUploadFile() {
  return useFilesMutation((v: { file: File; onProgress?: (percent: number) => void }) =>
    uploadFile(v.file, { onProgress: v.onProgress }),
  );
}

/** Deletes a file; 409 (40900) while a running request holds it. */
export function useDeleteFile() {
  return useFilesMutation(async (id: number) => {
    await api.DELETE('/api/v1/files/{id}', { params: { path: { id } } });
  });
}
