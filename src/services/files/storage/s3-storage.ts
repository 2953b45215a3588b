import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  NoSuchKey,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { Readable } from 'node:stream';
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
export function openS3Storage(options: S3StorageOptions): FileStorage {
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
