/**
 * Uploads to `POST /api/v1/files`. The one call not made through openapi-fetch: fetch cannot
 * report upload progress, so this sends an XMLHttpRequest, authenticated as the client's
 * middleware does (bearer token, device id) and renewed the same way on an expired token.
 */
import { EXPIRED, refreshOnce, signedOut } from './client';
import { ApiError, isCustomText } from './errors';
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
