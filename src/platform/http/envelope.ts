import { z } from 'zod';
import { AppError, ERROR_CODES } from '../errors.js';

export interface Envelope<T> {
  code: 200;
  message: string;
  data: T;
}

export function ok<T>(data: T): Envelope<T> {
  return { code: 200, message: 'success', data };
}

/** Response schema of a successful envelope around `data`. */
export function envelopeOf<T extends z.ZodType>(data: T) {
  return z.object({ code: z.literal(200), message: z.string(), data });
}

export const errorEnvelope = z.object({
  code: z.number().int(),
  message: z.string(),
  data: z.unknown(),
});

export const MAX_PAGE_SIZE = 100;
/**
 * The highest `page`: no list has a billion pages, and past it the offset would leave the range
 * of exact integers (2^53) and reach the database as a value it cannot read (a 500).
 */
export const MAX_PAGE = 1_000_000_000;

/** Query schema fragment: `page` and `page_size` as strings, parsed by `parsePage`. */
export const pageQuery = {
  page: z.string().optional().describe('page number, from 1 (default 1)'),
  page_size: z.string().optional().describe('page size (default 10, values above 100 are clamped)'),
};

export interface Page {
  page: number;
  pageSize: number;
  offset: number;
}

/**
 * `page` defaults to 1, `page_size` to 10 and is clamped at 100; anything not a positive integer,
 * and a `page` above 10^9, is a 400 (40000).
 */
export function parsePage(query: {
  page?: string | undefined;
  page_size?: string | undefined;
}): Page {
  const read = (name: 'page' | 'page_size', fallback: number) => {
    const raw = query[name];
    if (raw === undefined || raw === '') return fallback;
    if (!/^[1-9]\d{0,15}$/.test(raw)) {
      throw new AppError(ERROR_CODES.BAD_REQUEST, `${name} must be a positive integer`, {
        fields: [{ field: name, rule: 'format', message: 'must be a positive integer' }],
      });
    }
    return Number(raw);
  };
  const page = read('page', 1);
  if (page > MAX_PAGE) {
    throw new AppError(ERROR_CODES.BAD_REQUEST, `page must be at most ${MAX_PAGE}`, {
      fields: [{ field: 'page', rule: 'range', message: `must be at most ${MAX_PAGE}` }],
    });
  }
  const pageSize = Math.min(read('page_size', 10), MAX_PAGE_SIZE);
  return { page, pageSize, offset: (page - 1) * pageSize };
}

export function listOf<T extends z.ZodType>(item: T) {
  return z.object({
    list: z.array(item),
    total: z.number().int(),
    page: z.number().int(),
    page_size: z.number().int(),
  });
}

export function pageResult<T>(list: T[], total: number, page: Page) {
  return { list, total, page: page.page, page_size: page.pageSize };
}
