import { ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from '../helpers/platform.js';
import { dataOf } from '../identity/identity-fixtures.js';
import { download, upload } from './files-fixtures.js';

// A real S3 server (s3rver, in this process, on 127.0.0.1): the SDK's actual requests, no mock.
const BUCKET = 'approva-files-test';
const MAX_SIZE = 8 * 1024 * 1024;
let s3: S3rver;
let dir: string;
let endpoint: string;
let platform: TestPlatform;
let admin: string;
let client: S3Client;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 's3rver-'));
  s3 = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory: dir,
  });
  const { port } = await s3.run();
  endpoint = `http://127.0.0.1:${port}`;
  platform = await startTestPlatform({
    UPLOAD_STORAGE_TYPE: 's3',
    UPLOAD_S3_ENDPOINT: endpoint,
    UPLOAD_S3_BUCKET: BUCKET,
    UPLOAD_S3_ACCESS_KEY: 'S3RVER',
    UPLOAD_S3_SECRET_KEY: 'S3RVER',
    UPLOAD_MAX_SIZE: String(MAX_SIZE),
    UPLOAD_ORPHAN_SWEEP_INTERVAL: '1s',
    UPLOAD_ORPHAN_GRACE: '2s',
  });
  admin = await platform.adminToken();
  client = new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
});
afterAll(async () => {
  client?.destroy();
  await platform?.close();
  await s3?.close();
  await rm(dir, { recursive: true, force: true });
});

async function objectKeys(): Promise<string[]> {
  const listed = await client.send(new ListObjectsV2Command({ Bucket: BUCKET }));
  return (listed.Contents ?? []).map((o) => o.Key!).sort();
}

describe('S3 storage', () => {
  it('round-trips small and multipart-sized files byte-exact under random keys', async () => {
    for (const size of [10, 6 * 1024 * 1024 + 123]) {
      const bytes = randomBytes(size);
      const file = dataOf(await upload(platform, admin, bytes, 'doc.bin'));
      const key = file.url.split('?')[0].split('/').pop();
      expect(await objectKeys()).toContain(key);
      const { response, bytes: got } = await download(platform, file.url);
      expect(response.status).toBe(200);
      expect(got.length).toBe(size);
      expect(got.equals(bytes)).toBe(true);
    }
  });

  it('refuses a file over UPLOAD_MAX_SIZE with 413 and leaves no object', async () => {
    const before = await objectKeys();
    const res = await upload(platform, admin, randomBytes(MAX_SIZE + 1));
    expect(res.status).toBe(413);
    expect(res.body.code).toBe(41300);
    expect(await objectKeys()).toEqual(before);
  });

  it('deletes the object with the file, and its link then answers 404', async () => {
    const file = dataOf(await upload(platform, admin, Buffer.from('to delete')));
    const key = file.url.split('?')[0].split('/').pop();
    dataOf(await platform.call('DELETE', `/api/v1/files/${file.id}`, { token: admin }));
    expect(await objectKeys()).not.toContain(key);
    expect((await download(platform, file.url)).response.status).toBe(404);
  });
});

describe('S3 bucket and orphans', () => {
  it('created the bucket, which did not exist, when the service started', async () => {
    // s3rver starts with no bucket here: every test above ran against the one the service made.
    expect(await objectKeys()).toEqual(expect.any(Array));
  });

  it('sweeps an object no row names once it is older than the grace, and keeps files', async () => {
    const bytes = randomBytes(64);
    const kept = dataOf(await upload(platform, admin, bytes, 'kept.bin'));
    const orphan = randomBytes(16).toString('hex');
    await client.send(new PutObjectCommand({ Bucket: BUCKET, Key: orphan, Body: 'orphan' }));
    await client.send(new PutObjectCommand({ Bucket: BUCKET, Key: 'notes/readme.txt', Body: 'x' }));
    await expect.poll(objectKeys, { timeout: 20_000 }).not.toContain(orphan);
    expect(await objectKeys()).toContain('notes/readme.txt');
    const { response, bytes: got } = await download(platform, kept.url);
    expect(response.status).toBe(200);
    expect(got.equals(bytes)).toBe(true);
  });
});
