import type { Logger } from 'pino';
import type { Settings } from '../config/settings.js';
import { BusinessAuditWriter } from './audit/business-audit.js';
import { Failpoints } from './failpoints.js';
import { openCache, type Cache } from './cache/cache.js';
import { openDatabase, type DatabaseHandle } from './db/database.js';
import { migrate } from './db/migrator.js';
import { openOperationLogSink, type OperationLogTables } from './audit/operation-log-writer.js';
import { OperationLogRecorder } from './audit/operation-log.js';
import { PasswordHasher } from './auth/passwords.js';
import { openStream, type EventStream } from './stream/stream.js';
import { ErrorTexts, errorTextsFromTable } from './http/error-texts.js';

/** The shared resources a process opens once and hands to each service it runs. */
export interface Kernel {
  settings: Settings;
  logger: Logger;
  database: DatabaseHandle;
  cache: Cache;
  stream: EventStream;
  /** The process's one operation-log buffer; every service app records into it. */
  operationLog: OperationLogRecorder;
  /** The process's one argon2 semaphore: every service hashes and verifies through it. */
  passwords: PasswordHasher;
  /** Business-audit rows, chained under AUDIT_CHAIN_SECRET, for every service recording changes. */
  businessAudit: BusinessAuditWriter;
  /** The editable error texts, reloaded from the database every ERROR_TEXT_REFRESH_INTERVAL. */
  errorTexts: ErrorTexts;
  /** Fault tests' failpoints (FAILPOINT); unset: every point is a no-op. */
  failpoints: Failpoints;
  close(): Promise<void>;
}

export async function openKernel(settings: Settings, logger: Logger): Promise<Kernel> {
  // First: a mistyped FAILPOINT fails the start before anything is opened.
  const failpoints = new Failpoints(settings.failpoint);
  const database = await openDatabase({ ...settings.database, logger });
  try {
    await migrate(database, logger);
  } catch (err) {
    await database.close();
    throw err;
  }
  const cache = openCache(settings.redis, logger);
  const stream = openStream(settings.nats, database, logger);
  // Every service app records into this one buffer (createHttpApp's `operationLog`); the
  // gateway records only what it answers itself, so a request is logged once.
  const operationLogSink = openOperationLogSink({
    url: settings.database.url,
    db: database.db.withTables<OperationLogTables>(),
    logger,
  });
  const operationLog = new OperationLogRecorder({ write: operationLogSink.write, logger });
  const errorTexts = new ErrorTexts({
    load: errorTextsFromTable(database.db),
    refreshMs: settings.errorTextRefreshMs,
    logger,
  });
  await errorTexts.start();
  return {
    settings,
    logger,
    database,
    cache,
    stream,
    operationLog,
    passwords: new PasswordHasher(settings.passwordHash),
    businessAudit: new BusinessAuditWriter(settings.auditChain.linkKey, failpoints),
    failpoints,
    errorTexts,
    async close() {
      errorTexts.stop();
      // Remaining entries are written before the database closes.
      await operationLog.close();
      await operationLogSink.close();
      await stream.close();
      await cache.close();
      await database.close();
    },
  };
}
