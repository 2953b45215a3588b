/**
 * One's absence (`/bpm/out-of-office`): while it holds, new tasks for the person go to the
 * stand-in, who acts on their behalf; `move_pending` also moves the open ones when it begins.
 */
import { api, data } from './client';
import type { paths } from './schema';

type Operations = paths['/api/v1/bpm/out-of-office'];

/** The absence as the server answers it (the generated contract, not a copy of it). */
export type OutOfOffice = NonNullable<
  Operations['get']['responses'][200]['content']['application/json']['data']
>;
export type OutOfOfficeInput = NonNullable<
  Operations['put']['requestBody']
>['content']['application/json'];
/** The saved absence, and how many open tasks went to the stand-in on saving. */
export type SavedOutOfOffice =
  Operations['put']['responses'][200]['content']['application/json']['data'];

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
