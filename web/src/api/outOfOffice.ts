/**
 * One's absence (`/bpm/out-of-office`): while it holds, new tasks for the person go to the
 * stand-in, who acts on their behalf; `move_pending` also moves the open ones when it begins.
 */
import { data } from './client';
import { untyped } from './interim';

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
  updated_at: string;
}

export interface OutOfOfficeInput {
  stand_in_id: number;
  from: string;
  to: string;
  definition_keys?: string[];
  move_pending?: boolean;
  comment?: string;
}

/** The saved absence, and how many open tasks went to the stand-in on saving. */
export type SavedOutOfOffice = OutOfOffice & { moved: number };

export const outOfOfficeKey = ['bpm', 'out-of-office'] as const;
const PATH = '/api/v1/bpm/out-of-office';

export async function fetchOutOfOffice(): Promise<OutOfOffice | null> {
  return ((await data(untyped.GET(PATH))) as OutOfOffice | null) ?? null;
}

export async function saveOutOfOffice(
  body: OutOfOfficeInput,
  headers: Record<string, string>,
): Promise<SavedOutOfOffice> {
  return (await data(untyped.PUT(PATH, { body, headers }))) as SavedOutOfOffice;
}

export async function clearOutOfOffice(headers: Record<string, string>): Promise<void> {
  await untyped.DELETE(PATH, { headers });
}
