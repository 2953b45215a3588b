import type { TFunction } from 'i18next';
import { ApiError, messageOf } from '../../../api/errors';
import { formatSize } from '../../../api/files';

/**
 * Why an upload was refused, naming the file: too large (413), over the tenant's quota (409 with
 * `data.quota_bytes`), or the server's reason.
 */
export function uploadProblem(t: TFunction, name: string, error: unknown): string {
  if (error instanceof ApiError && error.status === 413) return t('files.tooLarge', { name });
  if (error instanceof ApiError && error.status === 409) {
    const quota = (error.data as { quota_bytes?: unknown } | null)?.quota_bytes;
    if (typeof quota === 'number') {
      return t('files.overQuota', { name, quota: formatSize(quota) });
    }
  }
  return t('files.uploadFailed', { name, reason: messageOf(error) });
}

/** Why a delete was refused: a 409 is a running request holding the file; else the reason. */
export function deleteProblem(t: TFunction, name: string, error: unknown): string {
  if (error instanceof ApiError && error.status === 409) return t('files.held', { name });
  return t('files.deleteFailed', { name, reason: messageOf(error) });
}
