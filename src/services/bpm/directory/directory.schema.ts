import { z } from 'zod';
import { keywordQuery } from '../../../platform/http/params.js';

/** At most this many people per answer. */
export const PEOPLE_LIMIT = 20;
export const MAX_PEOPLE_IDS = 100;

export const peopleQuery = z.object({
  keyword: keywordQuery.describe('part of the username or nickname'),
  ids: z
    .string()
    .max(1100)
    .regex(/^\d{1,15}(,\d{1,15})*$/, 'comma-separated user ids')
    .optional()
    .describe(`comma-separated user ids (at most ${MAX_PEOPLE_IDS}) whose names to show`),
});

export const personView = z.object({
  id: z.number().int(),
  name: z.string(),
  dept_id: z.number().int().nullable(),
  dept_name: z.string().nullable(),
  active: z.boolean(),
});

export const departmentView = z.object({
  id: z.number().int(),
  name: z.string(),
  parent_id: z.number().int().nullable(),
});

export type PeopleQuery = z.infer<typeof peopleQuery>;
