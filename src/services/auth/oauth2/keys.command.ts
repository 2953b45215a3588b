import type { Logger } from 'pino';
import type { Settings } from '../../../config/settings.js';
import { openDatabase } from '../../../platform/db/database.js';
import { migrate } from '../../../platform/db/migrator.js';
import type { OAuthTables } from './oauth2.tables.js';
import { KeyCipher, rotateSigningKey } from './signing-keys.js';

/**
 * `approva keys rotate`: adds a new signing key and retires the current one. Running servers
 * pick it up within OIDC_KEY_CHECK_INTERVAL; the retired key stays in /jwks until every token
 * it signed has expired.
 */
export async function rotateKeys(settings: Settings, logger: Logger): Promise<string> {
  const database = await openDatabase({ ...settings.database, logger });
  try {
    await migrate(database, logger);
    const kid = await rotateSigningKey(
      database.db.withTables<OAuthTables>(),
      new KeyCipher(settings.auth.oidc.keyEncryptionKey),
    );
    logger.info({ kid }, 'oauth2 signing key rotated');
    return kid;
  } finally {
    await database.close();
  }
}
