import { request } from 'node:http';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { ApiResponse, TestPlatform } from '../helpers/platform.js';

/** POST /api/v1/files with one file in a multipart body (fetch's FormData). */
export async function upload(
  platform: TestPlatform,
  token: string,
  bytes: Uint8Array,
  name = 'a.bin',
  type = 'application/octet-stream',
): Promise<ApiResponse> {
  const form = new FormData();
  form.append('file', new Blob([bytes], { type }), name);
  const response = await fetch(`${platform.url}/api/v1/files`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: response.status, body, headers: response.headers, text };
}

/** GET a link (relative to the platform) and the bytes it serves. */
export async function download(platform: TestPlatform, url: string) {
  const response = await fetch(`${platform.url}${url}`);
  return { response, bytes: Buffer.from(await response.arrayBuffer()) };
}

/** Every file under `dir`, recursively (what the local storage holds). */
export async function storedFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

/** Deterministic bytes: byte i of the file is (i * 31 + 7) mod 251. */
export function patternChunk(offset: number, length: number): Buffer {
  const chunk = Buffer.allocUnsafe(length);
  for (let i = 0; i < length; i++) chunk[i] = ((offset + i) * 31 + 7) % 251;
  return chunk;
}

/**
 * Uploads `size` pattern bytes as a stream with an exact Content-Length (node:http), never
 * holding the file in this process either: for the memory bound test.
 */
export function streamUpload(
  platform: TestPlatform,
  token: string,
  size: number,
): Promise<{ status: number; body: any }> {
  const boundary = '----approva-test-boundary';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\n` +
      'Content-Type: application/octet-stream\r\n\r\n',
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  // The pattern repeats every 251 bytes: one chunk of a multiple of that is every chunk, so
  // this process makes no garbage of the file's size that the memory bound would count.
  const CHUNK = 251 * 1024;
  const chunk = patternChunk(0, CHUNK);
  async function* body() {
    yield head;
    for (let offset = 0; offset < size; offset += CHUNK) {
      yield size - offset >= CHUNK ? chunk : chunk.subarray(0, size - offset);
    }
    yield tail;
  }
  const url = new URL('/api/v1/files', platform.url);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': String(head.length + size + tail.length),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          let parsed: unknown = text;
          try {
            parsed = JSON.parse(text);
          } catch {
            // not JSON
          }
          resolve({ status: res.statusCode ?? 0, body: parsed });
        });
      },
    );
    req.on('error', reject);
    Readable.from(body()).pipe(req);
  });
}
