import { createHmac } from 'node:crypto';
import { z } from 'zod';
import { duration, int, optionalText, url } from '../../config/env-fields.js';
import { isPlaceholderSecret } from '../../config/secrets.js';
import { defineSettings } from '../../config/slice.js';

/** The files service's settings (`UPLOAD_*`, and the older `S3_*` keys as fallbacks). */
export const filesSettings = defineSettings({
  env: {
    UPLOAD_STORAGE_TYPE: z.enum(['local', 's3', 'minio']).default('local'),
    S3_ACCESS_KEY: optionalText,
    S3_SECRET_KEY: optionalText,
    UPLOAD_S3_ENDPOINT: url,
    UPLOAD_S3_BUCKET: z.string().default('approva'),
    UPLOAD_S3_REGION: z.string().default('us-east-1'),
    UPLOAD_S3_ACCESS_KEY: optionalText,
    UPLOAD_S3_SECRET_KEY: optionalText,
    /** Local storage's directory; default `<DATA_DIR>/uploads` (a temporary one for `memory://`). */
    UPLOAD_LOCAL_DIR: optionalText,
    UPLOAD_MAX_SIZE: int(50 * 1024 * 1024, 1, 5 * 1024 * 1024 * 1024),
    UPLOAD_URL_SIGN_SECRET: optionalText,
    UPLOAD_URL_SIGN_TTL_SECONDS: int(300, 1, 7 * 24 * 3600),
    UPLOAD_ORPHAN_SWEEP_INTERVAL: duration('1h'),
    UPLOAD_ORPHAN_GRACE: duration('1h'),
  },
  shape: (env) => ({
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
    /** How often stored objects that no row names are looked for and removed. */
    orphanSweepIntervalMs: env.UPLOAD_ORPHAN_SWEEP_INTERVAL,
    /** Objects younger than this are never swept (an upload between its bytes and its row). */
    orphanGraceMs: env.UPLOAD_ORPHAN_GRACE,
  }),
  productionProblems(env) {
    if (env.UPLOAD_STORAGE_TYPE === 'local') return [];
    // UPLOAD_S3_* wins; the older S3_* names are its fallback (the message names the old one).
    return (['S3_ACCESS_KEY', 'S3_SECRET_KEY'] as const)
      .filter((name) => {
        const value = env[`UPLOAD_${name}`] ?? env[name];
        return !value || isPlaceholderSecret(value);
      })
      .map(
        (name) =>
          `${name} must be set and not a placeholder when UPLOAD_STORAGE_TYPE is ${env.UPLOAD_STORAGE_TYPE}`,
      );
  },
});

declare module '../../config/settings.js' {
  interface ModuleSettings {
    files: ReturnType<typeof filesSettings.shape>;
  }
}
