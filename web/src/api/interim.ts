/**
 * INTERIM, until the engine's types for "approvals that follow people" are on main: the shapes
 * the server is landing (src/services/bpm/engine/types.ts), and untyped calls to its new paths.
 * Once merged, bpm.ts re-exports the engine's own types, the calls use the generated client,
 * and this file goes.
 */
import type * as Engine from '@engine/types';
import { api } from './client';

export type FieldType = Engine.FieldType | 'user' | 'dept';
export interface FormField extends Omit<Engine.FormField, 'type'> {
  type: FieldType;
}
export interface FormSchema {
  fields: FormField[];
}
export type AssigneeRule = Engine.AssigneeRule | { type: 'form_user'; field: string };
export interface NodeTimeout {
  hours: number;
  action: 'remind' | 'escalate' | 'auto_approve' | 'auto_reject';
  repeatEveryHours?: number;
  repeatCount?: number;
  finalAction?: 'auto_approve' | 'auto_reject' | 'stay';
}
export interface ResubmitTimeout {
  hours: number;
  action: 'remind' | 'cancel';
}

/**
 * Calls to paths the generated client does not know yet (the directory and out-of-office
 * endpoints), answered in the usual envelope. Replaced by the typed `api` once they are in
 * docs/openapi.json.
 */
type UntypedCall = (
  path: string,
  init?: {
    params?: { query?: Record<string, string> };
    body?: unknown;
    headers?: Record<string, string>;
  },
) => Promise<{ data?: { data: unknown } }>;
export const untyped = {
  GET: api.GET as unknown as UntypedCall,
  PUT: api.PUT as unknown as UntypedCall,
  DELETE: api.DELETE as unknown as UntypedCall,
};
