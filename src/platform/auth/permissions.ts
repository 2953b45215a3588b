/**
 * The closed catalogue of permission codes: every code a route may require, what it allows and
 * the routes that require it. `requirePermission` takes only these codes (a type error
 * otherwise); roles may grant them, `*`, or a `prefix:*` covering at least one of them. Served at
 * `GET /api/v1/permissions` for the console's role editor.
 */
export const PERMISSIONS = [
  {
    code: 'system:user:list',
    description: 'List and read users, and list their sessions',
    routes: ['GET /api/v1/users', 'GET /api/v1/users/:id', 'GET /api/v1/sessions'],
  },
  { code: 'system:user:create', description: 'Create users', routes: ['POST /api/v1/users'] },
  {
    code: 'system:user:update',
    description: 'Update users (profile, status, roles) and sign their sessions out',
    routes: ['PUT /api/v1/users/:id', 'DELETE /api/v1/sessions/:id'],
  },
  {
    code: 'system:user:reset-password',
    description: 'Set another user’s password or e-mail address (with system:user:update)',
    routes: ['PUT /api/v1/users/:id'],
  },
  { code: 'system:user:delete', description: 'Delete users', routes: ['DELETE /api/v1/users/:id'] },
  {
    code: 'system:role:list',
    description: 'List and read roles',
    routes: ['GET /api/v1/roles', 'GET /api/v1/roles/:id'],
  },
  { code: 'system:role:create', description: 'Create roles', routes: ['POST /api/v1/roles'] },
  {
    code: 'system:role:update',
    description: 'Update roles, including their permission codes',
    routes: ['PUT /api/v1/roles/:id'],
  },
  { code: 'system:role:delete', description: 'Delete roles', routes: ['DELETE /api/v1/roles/:id'] },
  {
    code: 'system:dept:list',
    description: 'List and read departments and the department tree',
    routes: [
      'GET /api/v1/departments',
      'GET /api/v1/departments/tree',
      'GET /api/v1/departments/:id',
    ],
  },
  {
    code: 'system:dept:create',
    description: 'Create departments',
    routes: ['POST /api/v1/departments'],
  },
  {
    code: 'system:dept:update',
    description: 'Update departments (name, parent, leader)',
    routes: ['PUT /api/v1/departments/:id'],
  },
  {
    code: 'system:dept:delete',
    description: 'Delete departments',
    routes: ['DELETE /api/v1/departments/:id'],
  },
  {
    code: 'system:tenant:list',
    description: 'List and read tenants (platform administrators only)',
    routes: ['GET /api/v1/tenants', 'GET /api/v1/tenants/:id'],
  },
  {
    code: 'system:tenant:create',
    description: 'Create tenants with their first administrator (platform administrators only)',
    routes: ['POST /api/v1/tenants'],
  },
  {
    code: 'system:tenant:update',
    description: 'Update or disable tenants (platform administrators only)',
    routes: ['PUT /api/v1/tenants/:id'],
  },
  {
    code: 'system:tenant:delete',
    description: 'Delete tenants (platform administrators only)',
    routes: ['DELETE /api/v1/tenants/:id'],
  },
  {
    code: 'system:log:operation',
    description: 'Read, summarize and export operation logs',
    routes: [
      'GET /api/v1/operation-logs',
      'GET /api/v1/operation-logs/:id',
      'GET /api/v1/operation-logs/stats',
      'GET /api/v1/operation-logs/export',
    ],
  },
  {
    code: 'system:log:operation:clear',
    description: 'Delete operation logs older than N days',
    routes: ['DELETE /api/v1/operation-logs/clear'],
  },
  {
    code: 'system:log:login',
    description: 'Read and summarize login logs',
    routes: [
      'GET /api/v1/login-logs',
      'GET /api/v1/login-logs/stats',
      'GET /api/v1/login-logs/trend',
    ],
  },
  {
    code: 'system:log:login:clear',
    description: 'Delete login logs older than N days',
    routes: ['DELETE /api/v1/login-logs/clear'],
  },
  {
    code: 'system:log:audit',
    description: 'Read, verify and export business audit logs',
    routes: [
      'GET /api/v1/logs/audit',
      'GET /api/v1/logs/audit/export',
      'GET /api/v1/logs/audit/verify',
    ],
  },
  {
    code: 'bpm:definition:list',
    description: 'List and read workflow definitions, and dry-run them',
    routes: [
      'GET /api/v1/bpm/definitions',
      'GET /api/v1/bpm/definitions/:id',
      'POST /api/v1/bpm/definitions/:id/simulate',
    ],
  },
  {
    code: 'bpm:definition:create',
    description: 'Create workflow definitions and new versions of them',
    routes: ['POST /api/v1/bpm/definitions', 'POST /api/v1/bpm/definitions/:id/new-version'],
  },
  {
    code: 'bpm:definition:update',
    description: 'Edit draft workflow definitions',
    routes: ['PUT /api/v1/bpm/definitions/:id'],
  },
  {
    code: 'bpm:definition:publish',
    description: 'Publish workflow definitions',
    routes: ['POST /api/v1/bpm/definitions/:id/publish'],
  },
  {
    code: 'bpm:definition:suspend',
    description: 'Suspend workflow definitions (no new instances)',
    routes: ['POST /api/v1/bpm/definitions/:id/suspend'],
  },
] as const satisfies ReadonlyArray<{
  code: string;
  description: string;
  routes: readonly string[];
}>;

export type PermissionCode = (typeof PERMISSIONS)[number]['code'];

const CODES: ReadonlySet<string> = new Set(PERMISSIONS.map((p) => p.code));

/** A code a role may grant: `*`, a catalogue code, or `prefix:*` covering at least one of them. */
export function isGrantable(code: string): boolean {
  if (code === '*' || CODES.has(code)) return true;
  if (!code.endsWith(':*')) return false;
  const prefix = code.slice(0, -1);
  return PERMISSIONS.some((p) => p.code.startsWith(prefix));
}
