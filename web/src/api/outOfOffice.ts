/**
 * One's absence (`/bpm/out-of-office`): while it holds, new tasks for the person go to the
 * stand-in, who acts on their behalf; `move_pending` also moves the open ones when it begins.
 */
import { api, data } from './client';

export interface OutOfOffice {
  user_id: number;
  stand_in_id: number;
  /** ISO 8601. */
  from: string;
  to: string;
  /** The flows it covers by key; null: every flow. */
  definition_keys: string[] | null;
  move_pending: boolean;
  comment: string | null;
  /** Now is within from..to. */
  active: boolean;
  /** Who set it last (the user, or a platform admin). */
  updated_by: number;
  updated_at: string;
}

export interface OutOfOfficeInput {
  stand_in_id: number;
  from: string;
  to: string;
  definition_keys?: string[] | null;
  move_pending?: boolean;
  comment?: string | null;
}

/** The saved absence, and how many open tasks went to the stand-in on saving. */
export type SavedOutOfOffice = OutOfOffice & { moved: number };

export const outOfOfficeKey = ['bpm', 'out-of-office'] as const;
const PATH = '/api/v1/bpm/out-of-office' as const;

export async function fetchOutOfOffice(): Promise<OutOfOffice | null> {
  return (await data(api.GET(PATH))) ?? null;
}

export async function saveOutOfOffice(
  body: OutOfOfficeInput,
  headers: Record<string, string>,
): Promise<SavedOutOfOffice> {
  return data(api.PUT(PATH, { body, headers }));
}

export async function clearOutOfOffice(headers: Record<string, string>): Promise<void> {
  await api.DELETE(PATH, { headers });
}
