import { createReadStream, createWriteStream } from 'node:fs';
import { access, mkdir, mkdtemp, readdir, rm, stat, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { isStorageKey } from '../url-signer.js';
import type { FileStorage } from './storage.js';

/**
 * Files on local disk, one per key, in `<dir>/<first two hex digits>/<key>`. Without a
 * directory (an in-memory DATA_DIR) a fresh temporary one is used and removed on close.
 */
export async function openLocalStorage(dir: string | undefined): Promise<FileStorage> {
  const temporary = dir === undefined;
  const root = dir ?? (await mkdtemp(join(tmpdir(), 'approva-uploads-')));
  await mkdir(root, { recursive: true });
  const pathOf = (key: string) => {
    // Defence in depth: keys are ours, but a path is only ever built from the exact format.
    if (!isStorageKey(key)) throw new Error('not a storage key');
    return join(root, key.slice(0, 2), key);
  };
  return {
    kind: 'local',
    async put(key, body) {
      const path = pathOf(key);
      await mkdir(join(root, key.slice(0, 2)), { recursive: true });
      try {
        // `wx`: a key is written once; a collision fails instead of overwriting.
        await pipeline(body, createWriteStream(path, { flags: 'wx' }));
      } catch (err) {
        await unlink(path).catch(() => undefined);
        throw err;
      }
    },
    async get(key) {
      const path = pathOf(key);
      try {
        await access(path);
      } catch {
        return null;
      }
      return createReadStream(path);
    },
    async *keysBefore(before) {
      for (const shard of await readdir(root, { withFileTypes: true })) {
        if (!shard.isDirectory() || !/^[0-9a-f]{2}$/.test(shard.name)) continue;
        for (const name of await readdir(join(root, shard.name))) {
          if (!isStorageKey(name) || !name.startsWith(shard.name)) continue;
          const info = await stat(join(root, shard.name, name)).catch(() => undefined);
          if (info && info.mtime < before) yield name;
        }
      }
    },
    async delete(key) {
      await unlink(pathOf(key)).catch((err: NodeJS.ErrnoException) => {
        if (err.code !== 'ENOENT') throw err;
      });
    },
    ping: () => access(root),
    async close() {
      if (temporary) await rm(root, { recursive: true, force: true });
    },
  };
}
