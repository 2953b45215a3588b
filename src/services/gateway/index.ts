/**
 * The gateway's public face: the front door, not a service module. It needs the services' URLs
 * and forward-auth: in-process (the auth module's verifier) when auth runs in the same process,
 * else over HTTP to AUTH_SERVICE_URL. Serves the proxy routes (handing requests to the services
 * of its own process in process, the others over HTTP), the platform's readiness and the
 * OpenAPI document; its metrics go to an internal listener.
 */
export { buildGatewayApp, type GatewayOptions, type GatewayRoute } from './gateway.app.js';
export { HttpForwardAuth, LocalForwardAuth, type ForwardAuth } from './forward-auth.js';
export type { InProcessService } from './in-process.js';
