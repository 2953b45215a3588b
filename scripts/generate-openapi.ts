/** Writes docs/openapi.json from the route schemas: `npm run openapi`. */
import { writeFile } from 'node:fs/promises';
import { loadSettings } from '../src/start.js';
import { createLogger } from '../src/platform/logging/logger.js';
import { openKernel } from '../src/platform/kernel.js';
import { buildOpenApiDocument, OPENAPI_PATH } from '../src/openapi.js';

const settings = loadSettings({
  DATA_DIR: 'memory://',
  LOG_LEVEL: 'error',
  METRICS_ENABLED: 'false',
});
const kernel = await openKernel(settings, createLogger('error'));
try {
  const document = await buildOpenApiDocument(kernel);
  await writeFile(OPENAPI_PATH, `${JSON.stringify(document, null, 2)}\n`);
  console.log(`wrote ${OPENAPI_PATH.pathname}: ${Object.keys(document.paths).length} paths`);
} finally {
  await kernel.close();
}
