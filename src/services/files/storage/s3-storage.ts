import {
  CreateBucketCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  ListObjectsV2Command,
  NoSuchKey,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { Readable } from 'node:stream';
import type { Logger } from 'pino';
import { isStorageKey } from '../url-signer.js';
import type { FileStorage } from './storage.js';

export interface S3StorageOptions {
  endpoint: string | undefined;
  bucket: string;
  region: string;
  accessKey: string | undefined;
  secretKey: string | undefined;
}

/**
 * Files in an S3 bucket (AWS, MinIO, any S3 API). Path-style addressing (MinIO and most
 * self-hosted servers have no per-bucket host names), and checksums only when the operation
 * requires them: otherwise the SDK wraps a streamed body in aws-chunked framing that servers
 * without that extension store as part of the object.
 */
export async function openS3Storage(
  options: S3StorageOptions,
  logger: Logger,
): Promise<FileStorage> {
  const client = new S3Client({
    endpoint: options.endpoint,
    region: options.region,
    forcePathStyle: true,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    ...(options.accessKey && options.secretKey
      ? { credentials: { accessKeyId: options.accessKey, secretAccessKey: options.secretKey } }
      : {}),
  });
  const Bucket = options.bucket;
  await ensureBucket(client, Bucket, logger);
  return {
    kind: 's3',
    async put(key, body, contentType) {
      // Multipart in parts of 5 MiB, at most 2 in flight: the memory an upload holds is bounded
      // whatever its size.
      const upload = new Upload({
        client,
        params: { Bucket, Key: key, Body: body, ContentType: contentType },
        partSize: 5 * 1024 * 1024,
        queueSize: 2,
      });
      await upload.done();
    },
    async get(key) {
      try {
        const result = await client.send(new GetObjectCommand({ Bucket, Key: key }));
        return (result.Body as Readable | undefined) ?? null;
      } catch (err) {
        if (err instanceof NoSuchKey || (err as { name?: string }).name === 'NoSuchKey')
          return null;
        throw err;
      }
    },
    async *keysBefore(before) {
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket, ContinuationToken }));
        for (const object of page.Contents ?? []) {
          const key = object.Key;
          if (key && isStorageKey(key) && object.LastModified && object.LastModified < before) {
            yield key;
          }
        }
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
    },
    async delete(key) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: key }));
    },
    async ping() {
      await client.send(new HeadBucketCommand({ Bucket }));
    },
    async close() {
      client.destroy();
    },
  };
}

/**
 * Creates the bucket when the server says it does not exist (a fresh MinIO, a new environment);
 * any other answer (no permission to look, the server down) is left to readiness to report.
 */
async function ensureBucket(client: S3Client, Bucket: string, logger: Logger): Promise<void> {
  try {
    await client.send(new HeadBucketCommand({ Bucket }));
  } catch (err) {
    const status = (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
    if (status !== 404) {
      logger.warn({ bucket: Bucket, err: (err as Error).name }, 'could not check the bucket');
      return;
    }
    await client.send(new CreateBucketCommand({ Bucket }));
    logger.info({ bucket: Bucket }, 'bucket created');
  }
}
