import { z } from 'zod';
import { timestamp } from '../../../platform/http/params.js';
import { TEMPLATE_LANGS } from './template-catalogue.js';

/** `:key/:lang`: the shape only (40000); a key or language the platform lacks is 404. */
export const templateParams = z.object({
  key: z.string().regex(/^[a-z][a-z0-9_.]{0,63}$/, 'a template key such as bpm.todo'),
  lang: z.string().regex(/^[a-z]{2}-[A-Z]{2}$/, 'a language tag such as zh-CN'),
});

export const updateTemplateBody = z.object({
  title: z.string().trim().min(1).max(200).describe("a notice's title, a mail's subject"),
  body: z.string().trim().min(1).max(10_000).describe('`{{placeholder}}`s of the template only'),
});
export type UpdateTemplateInput = z.infer<typeof updateTemplateBody>;

export const templateView = z.object({
  key: z.string(),
  lang: z.enum(TEMPLATE_LANGS),
  description: z.string(),
  placeholders: z.array(z.string()),
  html: z.boolean(),
  title: z.string(),
  body: z.string(),
  default_title: z.string(),
  default_body: z.string(),
  overridden: z.boolean(),
  updated_at: timestamp.nullable(),
});
export type TemplateView = z.infer<typeof templateView>;
