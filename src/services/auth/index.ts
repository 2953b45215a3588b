/**
 * The auth service's public face. Needs: `AuthPorts` (a user directory). Serves: login,
 * refresh, logout, captcha, `/me`, password change, forward-auth verify, readiness at
 * `/health/ready` (with the login-event relay's backlog), metrics. Job: the login-event relay
 * (auth_login_outbox to the event stream). Provides `createBearerVerifier`: the auth service's token
 * check as a function, for a service that validates bearer tokens itself (BPM) and for an
 * in-process gateway's forward-auth.
 */
import type { BearerVerifier } from '../../platform/auth/guard.js';
import type { Kernel } from '../../platform/kernel.js';
import type { ServiceModule } from '../../platform/module.js';
import { AUTH_USES } from './auth.permissions.js';
import { AUTH_ROUTES } from './auth.routes-table.js';
import { AUTH_JOBS } from './auth.jobs.js';
import { buildAuthApp, createAuthService } from './auth.app.js';
import type { AuthPorts } from './auth.ports.js';
import { authSettings } from './auth.settings.js';

export type { AuthPorts, AuthUser, UserCredentials, UserDirectory } from './auth.ports.js';

export const authModule: ServiceModule<AuthPorts, 'auth'> = {
  name: 'auth',
  settings: authSettings,
  defaultPort: 8101,
  jobs: Object.values(AUTH_JOBS),
  permissions: [],
  uses: AUTH_USES,
  routes: AUTH_ROUTES,
  async create(kernel, ports) {
    const { app, oauth, jobs } = await buildAuthApp(kernel, ports);
    return { app, jobs, onPublicUrl: (url) => oauth.start(url) };
  },
};

/** Signature, expiry, session not revoked, user and tenant active: as forward-auth checks. */
export function createBearerVerifier(kernel: Kernel, ports: AuthPorts): BearerVerifier {
  const auth = createAuthService(kernel, ports);
  return auth.verify.bind(auth);
}
