import { z } from 'zod';
import { pageQuery } from '../../../platform/http/envelope.js';
import { keywordQuery, timestamp } from '../../../platform/http/params.js';

export const SETTING_TYPES = ['string', 'number', 'boolean', 'json'] as const;
export type SettingType = (typeof SETTING_TYPES)[number];

/** Serialized JSON a value may take: settings are small, not a document store. */
export const MAX_SETTING_BYTES = 64 * 1024;
export const MAX_STRING_SETTING = 10_000;

/** `:key`: lower-case letters, digits, `.`, `_`, `-`, from a letter, at most 100 (else 40000). */
export const keyParams = z.object({
  key: z.string().regex(/^[a-z][a-z0-9._-]{0,99}$/, 'a setting key such as mail.footer'),
});

export const putSettingBody = z.object({
  type: z.enum(SETTING_TYPES),
  value: z.unknown().describe('a value of `type`: string, finite number, boolean, or any JSON'),
  description: z.string().max(500).optional(),
});
export type PutSettingInput = z.infer<typeof putSettingBody>;

export const listSettingsQuery = z.object({
  ...pageQuery,
  keyword: keywordQuery.describe('part of the key'),
});
export type ListSettingsQuery = z.infer<typeof listSettingsQuery>;

export const settingView = z.object({
  key: z.string(),
  type: z.enum(SETTING_TYPES),
  value: z.unknown(),
  description: z.string(),
  updated_by: z.number().int(),
  updated_at: timestamp,
});
export type SettingView = z.infer<typeof settingView>;
