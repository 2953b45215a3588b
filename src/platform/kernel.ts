import type { Logger } from 'pino';
import type { Settings } from '../config/settings.js';
import { openCache, type Cache } from './cache/cache.js';
import { openDatabase, type DatabaseHandle } from './db/database.js';
import { migrate } from './db/migrator.js';
import { openStream, type EventStream } from './stream/stream.js';

/** The shared resources a process opens once and hands to each service it runs. */
export interface Kernel {
  settings: Settings;
  logger: Logger;
  database: DatabaseHandle;
  cache: Cache;
  stream: EventStream;
  close(): Promise<void>;
}

export async function openKernel(settings: Settings, logger: Logger): Promise<Kernel> {
  const database = await openDatabase({ ...settings.database, logger });
  try {
    await migrate(database, logger);
  } catch (err) {
    await database.close();
    throw err;
  }
  const cache = openCache(settings.redis, logger);
  const stream = openStream(settings.nats, database, logger);
  return {
    settings,
    logger,
    database,
    cache,
    stream,
    async close() {
      await stream.close();
      await cache.close();
      await database.close();
    },
  };
}
