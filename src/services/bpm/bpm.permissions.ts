import { permissionGuards, type PermissionSpec } from '../../platform/auth/permissions.js';

/** The permission codes the bpm service declares: what each allows, the routes that need it. */
export const BPM_PERMISSIONS = [
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
] as const satisfies readonly PermissionSpec[];

export type BpmPermission = (typeof BPM_PERMISSIONS)[number]['code'];

/** `requirePermission` and `assertPermission` that take only these codes (a type error otherwise). */
export const { requirePermission, assertPermission } = permissionGuards(
  BPM_PERMISSIONS.map((p) => p.code),
);
