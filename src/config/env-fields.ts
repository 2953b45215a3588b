import { z } from 'zod';
import { parseDurationMs } from './duration.js';

/**
 * The kinds of environment variable the platform reads, each with its default. Every settings
 * slice (the platform's core and each service's) builds its variables from these, so a boolean
 * or a duration is spelled the same way everywhere.
 */

/** `true`/`false` and the usual spellings; unset is `fallback`. */
export const bool = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off'])
    .optional()
    .transform((v) => (v === undefined ? fallback : ['true', '1', 'yes', 'on'].includes(v)));

/** An integer in [min, max]; unset or empty is `fallback`. */
export const int = (fallback: number, min = 0, max = Number.MAX_SAFE_INTEGER) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === '') return fallback;
      const n = Number(v);
      if (!Number.isInteger(n) || n < min || n > max) {
        ctx.addIssue({ code: 'custom', message: `must be an integer from ${min} to ${max}` });
        return z.NEVER;
      }
      return n;
    });

/** A duration such as `500ms`, `30s`, `5m`, `1h`, in milliseconds; unset is `fallback`. */
export const duration = (fallback: string) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      const ms = parseDurationMs(v === undefined || v === '' ? fallback : v);
      if (ms === undefined) {
        ctx.addIssue({ code: 'custom', message: 'must be a duration such as 500ms, 30s, 5m, 1h' });
        return z.NEVER;
      }
      return ms;
    });

/** Free text; empty or blank is unset. */
export const optionalText = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v));

/** An optional URL setting: empty is unset. */
export const url = z
  .string()
  .optional()
  .transform((v, ctx) => {
    if (v === undefined || v.trim() === '') return undefined;
    try {
      new URL(v);
      return v;
    } catch {
      ctx.addIssue({ code: 'custom', message: 'must be a URL' });
      return z.NEVER;
    }
  });
