import { z } from 'zod';
import { envelopeOf } from '../../platform/http/envelope.js';
import { COLUMN_TYPES, SEARCHABLE_TYPES } from './generator/spec.js';

/** snake_case words from a letter; linear to check (no nested quantifiers over one class). */
const snake = (max: number) =>
  z
    .string()
    .max(max)
    .regex(/^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/, 'snake_case: a-z, 0-9 and _, from a letter');

/** Columns every generated table has: a described column may not take their names. */
const RESERVED = new Set(['id', 'tenant_id', 'created_by', 'created_at', 'updated_at']);

const column = z
  .object({
    name: snake(40).refine((name) => !RESERVED.has(name), 'a column every table has'),
    type: z.enum(COLUMN_TYPES),
    required: z.boolean().default(false),
    searchable: z.boolean().default(false),
    max_length: z
      .number()
      .int()
      .min(16)
      .max(10_000)
      .optional()
      .describe('`string` only; default 255'),
    description: z.string().trim().max(200).optional(),
  })
  .superRefine((c, ctx) => {
    if (c.max_length !== undefined && c.type !== 'string') {
      ctx.addIssue({ code: 'custom', path: ['max_length'], message: 'only for a string column' });
    }
    if (c.searchable && !SEARCHABLE_TYPES.includes(c.type)) {
      ctx.addIssue({
        code: 'custom',
        path: ['searchable'],
        message: `only ${SEARCHABLE_TYPES.join(', ')} columns are searchable`,
      });
    }
  });

export const moduleSpecBody = z
  .object({
    service: z
      .string()
      .regex(/^[a-z][a-z0-9]{1,19}$/, 'one lower-case word of 2 to 20 letters or digits')
      .describe('the new service: its folder, module name, URL segment and table prefix'),
    entity: snake(40).describe('the entity, singular: customer, purchase_order'),
    plural: snake(40).optional().describe('its plural (default: the entity and an s)'),
    columns: z.array(column).min(1).max(40),
  })
  .superRefine((spec, ctx) => {
    const names = new Set<string>();
    spec.columns.forEach((c, i) => {
      if (names.has(c.name)) {
        ctx.addIssue({ code: 'custom', path: ['columns', i, 'name'], message: 'named twice' });
      }
      names.add(c.name);
    });
    const plural = spec.plural ?? `${spec.entity}s`;
    if (`${spec.service}_${plural}`.length > 60) {
      ctx.addIssue({ code: 'custom', path: ['plural'], message: 'the table name is too long' });
    }
    if (plural === spec.entity) {
      ctx.addIssue({ code: 'custom', path: ['plural'], message: 'must differ from the entity' });
    }
  });

const generatedFiles = z.object({
  files: z.array(z.object({ path: z.string(), content: z.string() })),
});

export const previewEnvelope = envelopeOf(generatedFiles);
export const statusEnvelope = envelopeOf(
  z.object({
    write_enabled: z.boolean().describe('whether POST /api/v1/codegen/write exists here'),
    directory: z
      .string()
      .nullable()
      .describe('the project a write goes into; null when writing is off'),
  }),
);
export const writeEnvelope = envelopeOf(
  z.object({ directory: z.string(), paths: z.array(z.string()) }),
);
