/**
 * The platform for the captcha tests (`captcha` project of playwright.config.ts): started as
 * `approva serve` starts it (settings from the environment, here LOGIN_CAPTCHA=after_failures),
 * in one process with a second, test-only listener on 127.0.0.1 that answers
 * `GET /captcha/<captcha_id>` with the captcha's text read from the platform's cache, as a
 * person reads the image (the integration tests read it the same way). Nothing is added to the
 * platform itself: the default captcha rules stay as they are.
 */
import { createServer } from 'node:http';
import { createLogger } from '../../src/platform/logging/logger.js';
import { loadSettings, startPlatform } from '../../src/start.js';

const settings = loadSettings();
const logger = createLogger(settings.logLevel);
const platform = await startPlatform(settings, logger);

const answers = createServer((req, res) => {
  const id = /^\/captcha\/([0-9a-f-]{36})$/.exec(req.url ?? '')?.[1];
  const answer = id ? platform.kernel.cache.get(`auth:captcha:${id}`) : Promise.resolve(null);
  void answer.then((text) => {
    res.writeHead(text === null ? 404 : 200, { 'content-type': 'text/plain' });
    res.end(text ?? '');
  });
});
answers.listen(Number(process.env.CAPTCHA_ANSWER_PORT), '127.0.0.1');

const stop = () => {
  answers.close();
  void platform.close().then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
