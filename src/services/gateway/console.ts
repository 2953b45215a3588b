import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError, ERROR_CODES } from '../../platform/errors.js';
import type { HttpApp } from '../../platform/http/server.js';
import { PAGE_CSP } from './security-headers.js';

const DEFAULT_CONSOLE_DIR = fileURLToPath(new URL('../../../web/dist', import.meta.url));

/**
 * Paths that belong to the API or to protocol endpoints: an unknown one is the API's 404
 * envelope, never the console's index.html (a client would otherwise parse HTML as JSON).
 */
const API_PATH = /^\/(api|oauth2|password|uploads|metrics|\.well-known)(\/|$|\?)/;

/**
 * Console routes whose path is also an API alias's prefix: `/password` is the first-sign-in
 * password page, while `/password/forgot` and `/password/reset` are the API's; `/monitor` is
 * the monitor page, while `/monitor/services` and the rest are the monitor API's bare aliases.
 * A page request for the bare path (GET or HEAD) gets index.html before the API's proxy can
 * answer it (404, or 401 without a token).
 */
const PAGES_UNDER_API_PREFIX = /^\/(password|monitor)\/?(\?.*)?$/;

/**
 * What crawlers may index: nothing. The console is a signed-in application; its sign-in page
 * and API are no search result. Answered as text, never the console's HTML.
 */
const ROBOTS_TXT = 'User-agent: *\nDisallow: /\n';

export interface ConsoleOptions {
  /** The console's build output; empty: `web/dist` of this installation. */
  consoleDir: string;
}

/**
 * Serves the browsable API reference at `/api/docs` (from the published OpenAPI document) and
 * the built console at `/`, where every other GET that is not an API path answers index.html so
 * client-side routes survive a reload.
 */
export async function registerConsole(
  app: HttpApp,
  options: ConsoleOptions,
  openapi: string | null,
): Promise<void> {
  if (openapi) {
    const document = JSON.parse(openapi) as Record<string, unknown>;
    await app.register(fastifySwaggerUi, {
      routePrefix: '/api/docs',
      uiConfig: { deepLinking: true },
      // The console's policy: the UI's own default allows framing by the origin and upgrades
      // every request to HTTPS, which breaks a plain-HTTP deployment's page.
      staticCSP: PAGE_CSP,
      // The gateway's own swagger object lists no routes: the UI shows the published document,
      // the same one GET /api/v1/openapi.json answers.
      transformSpecification: () => document,
      transformSpecificationClone: false,
    });
  }

  const root = options.consoleDir || DEFAULT_CONSOLE_DIR;
  const built = existsSync(`${root}/index.html`);
  if (built) {
    await app.register(fastifyStatic, {
      root,
      prefix: '/',
      // One route per built file, so the catch-all below only sees what is not a file.
      wildcard: false,
      index: false,
      // The build writes a .br and a .gz beside each asset: sent by Accept-Encoding (with
      // Vary), the original otherwise. Nothing is compressed per request.
      preCompressed: true,
      setHeaders: (res, path) => {
        res.header('content-security-policy', PAGE_CSP);
        // Vite puts a content hash in every asset name: they never change, index.html does.
        res.header(
          'cache-control',
          path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    });
  }

  app.get('/robots.txt', { schema: { hide: true } }, async (_request, reply) =>
    reply
      .type('text/plain; charset=utf-8')
      .header('cache-control', 'public, max-age=86400')
      .send(ROBOTS_TXT),
  );

  const indexHtml = (reply: FastifyReply, file = 'index.html') =>
    reply
      .header('cache-control', 'no-cache')
      .header('content-security-policy', PAGE_CSP)
      .sendFile(file);

  if (built) {
    // Runs before routing, so before the proxy that owns the API alias's prefix.
    app.addHook('onRequest', async (request, reply) => {
      const method = request.method;
      if ((method === 'GET' || method === 'HEAD') && PAGES_UNDER_API_PREFIX.test(request.url)) {
        return indexHtml(reply);
      }
      return undefined;
    });
  }

  const page = async (request: FastifyRequest, reply: FastifyReply) => {
    if (API_PATH.test(request.url)) {
      throw new AppError(
        ERROR_CODES.NOT_FOUND,
        `no route for ${request.method} ${request.url.split('?')[0]}`,
      );
    }
    if (!built) throw new AppError(ERROR_CODES.NOT_FOUND, 'the console is not built');
    return indexHtml(reply);
  };
  // The sign-in page built ahead (web/scripts/prerender.mjs): on screen before the script runs.
  const prerenderedLogin = built && existsSync(`${root}/login.html`);
  app.get('/login', { schema: { hide: true } }, async (request, reply) =>
    prerenderedLogin ? indexHtml(reply, 'login.html') : page(request, reply),
  );
  app.get('/', { schema: { hide: true } }, page);
  app.get('/*', { schema: { hide: true } }, page);
}
