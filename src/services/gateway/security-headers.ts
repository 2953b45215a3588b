import type { HttpApp } from '../../platform/http/server.js';

/**
 * The Content-Security-Policy of the pages the gateway serves itself (the console and the API
 * reference at /api/docs), checked in Chromium against the built console with no violation:
 * scripts only from the origin (the build has no inline script); styles from the origin and
 * inline, because antd's CSS-in-JS injects <style> elements at run time (and index.html holds
 * one); images and fonts from the origin or data: URLs (icons in CSS); no plugins, no <base>,
 * no framing by any page (clickjacking), forms posted only to the origin.
 */
export const PAGE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  "form-action 'self'",
].join('; ');

/** One year, the value HSTS preload lists ask for. */
const HSTS = 'max-age=31536000; includeSubDomains';

/**
 * Headers on every answer of the gateway, its own and the services' (a service's own value of
 * the same header wins): no MIME sniffing; no Referer, since the password-reset page carries its
 * token in the URL; and HSTS when the request came over HTTPS (the socket's TLS, or
 * `X-Forwarded-Proto` from a proxy GATEWAY_TRUST_PROXY trusts: a client cannot claim it).
 */
export function registerSecurityHeaders(app: HttpApp): void {
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'no-referrer');
    if (request.protocol === 'https') reply.header('strict-transport-security', HSTS);
  });
}
