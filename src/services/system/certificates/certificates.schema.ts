import { z } from 'zod';
import { pageQuery } from '../../../platform/http/envelope.js';
import { keywordQuery, timestamp } from '../../../platform/http/params.js';

export const uploadCertificateBody = z.object({
  name: z.string().trim().min(1).max(100).describe('unique among the certificates'),
  certificate: z
    .string()
    .max(64 * 1024)
    .describe('PEM: the certificate first, then its chain (intermediates), if any'),
  private_key: z
    .string()
    .max(16 * 1024)
    .describe('PEM (PKCS#8, PKCS#1 or SEC1); stored encrypted, never answered'),
  passphrase: z.string().max(1024).optional().describe('when the private key is encrypted'),
});
export type UploadCertificateInput = z.infer<typeof uploadCertificateBody>;

export const listCertificatesQuery = z.object({
  ...pageQuery,
  keyword: keywordQuery.describe('part of the name or subject'),
});
export type ListCertificatesQuery = z.infer<typeof listCertificatesQuery>;

export const certificateView = z.object({
  id: z.number().int(),
  name: z.string(),
  subject: z.string(),
  issuer: z.string(),
  sans: z.array(z.string()),
  serial_number: z.string(),
  not_before: timestamp,
  not_after: timestamp,
  fingerprint256: z.string(),
  /** Certificates in the chain after the leaf. */
  chain_length: z.number().int(),
  created_by: z.number().int(),
  created_at: timestamp,
});
export type CertificateView = z.infer<typeof certificateView>;

/** One certificate with its PEM (public): the leaf and the chain. */
export const certificateDetail = certificateView.extend({
  certificate_pem: z.string(),
  chain_pem: z.string(),
});
export type CertificateDetail = z.infer<typeof certificateDetail>;
