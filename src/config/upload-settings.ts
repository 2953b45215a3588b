import { createHmac } from 'node:crypto';
import type { Env } from './settings.js';

/** The files service's settings (UPLOAD_*). */
export function uploadSettings(env: Env) {
  return {
    storageType: env.UPLOAD_STORAGE_TYPE,
    /** Bytes one uploaded file may hold. */
    maxSize: env.UPLOAD_MAX_SIZE,
    /** Unset: a fresh temporary directory when DATA_DIR is in memory, else `<DATA_DIR>/uploads`. */
    localDir:
      env.UPLOAD_LOCAL_DIR ??
      (env.DATA_DIR.startsWith('memory://')
        ? undefined
        : `${env.DATA_DIR.replace(/\/+$/, '')}/uploads`),
    s3: {
      endpoint: env.UPLOAD_S3_ENDPOINT,
      bucket: env.UPLOAD_S3_BUCKET,
      region: env.UPLOAD_S3_REGION,
      accessKey: env.UPLOAD_S3_ACCESS_KEY ?? env.S3_ACCESS_KEY,
      secretKey: env.UPLOAD_S3_SECRET_KEY ?? env.S3_SECRET_KEY,
    },
    // Download links' key: its own setting, else derived from JWT_SECRET (never equal to it).
    urlSignSecret:
      env.UPLOAD_URL_SIGN_SECRET ??
      createHmac('sha256', env.JWT_SECRET).update('approva/upload-url-signature').digest('hex'),
    urlTtlSeconds: env.UPLOAD_URL_SIGN_TTL_SECONDS,
  };
}
