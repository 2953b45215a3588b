import { z } from 'zod';
import { envelopeOf, listOf } from '../../platform/http/envelope.js';

/** A stored file as the API shows it, with a fresh signed link. */
export const fileView = z.object({
  id: z.number().int(),
  name: z.string().describe('the uploaded name, sanitized; for display only'),
  size: z.number().int().describe('bytes'),
  content_type: z.string(),
  uploaded_by: z.number().int(),
  created_at: z.string(),
  url: z.string().describe('signed download link, relative to the platform address'),
  expires_at: z.string().describe('when the link stops working'),
});

export const fileEnvelope = envelopeOf(fileView);
export const fileListEnvelope = envelopeOf(listOf(fileView));
export const linkEnvelope = envelopeOf(z.object({ url: z.string(), expires_at: z.string() }));
export const usageEnvelope = envelopeOf(
  z.object({
    used_bytes: z.number().int().describe("the tenant's stored bytes"),
    quota_bytes: z.number().int().describe('what it may store; 0: unlimited'),
  }),
);

/** The link's parts are read loosely: anything wrong with them is a 404, never a 400. */
export const downloadParams = z.object({ key: z.string().max(200) });
export const downloadQuery = z.object({
  expires: z.string().max(20).optional(),
  sig: z.string().max(200).optional(),
});
