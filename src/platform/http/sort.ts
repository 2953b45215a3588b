import { z } from 'zod';

export type SortOrder = 'asc' | 'desc';

/** A list's requested order: a whitelisted key (absent = the list's default) and a direction. */
export interface Sort<K extends string> {
  sort?: K | undefined;
  order?: SortOrder | undefined;
}

/**
 * Query schema fragment: `sort` limited to the list's whitelist and `order` to asc|desc, so
 * anything else is refused by validation (400 40000 with `data.fields`) and never reaches SQL.
 */
export function sortQuery<K extends string>(keys: readonly [K, ...K[]], defaultOrder: string) {
  return {
    sort: z
      .enum(keys)
      .optional()
      .describe(`sort key: ${keys.join(', ')} (default: ${defaultOrder})`),
    order: z
      .enum(['asc', 'desc'])
      .optional()
      .describe('sort direction (default desc); ties are broken by id in the same direction'),
  };
}
