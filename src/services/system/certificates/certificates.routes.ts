import { z } from 'zod';
import { principalOf, requirePlatformAdmin } from '../../../platform/auth/guard.js';
import { envelopeOf, listOf, ok } from '../../../platform/http/envelope.js';
import { idParams } from '../../../platform/http/params.js';
import type { HttpApp } from '../../../platform/http/server.js';
import { requirePermission, type SystemPermission } from '../system.permissions.js';
import {
  certificateDetail,
  certificateView,
  listCertificatesQuery,
  uploadCertificateBody,
} from './certificates.schema.js';
import type { CertificatesService } from './certificates.service.js';

const tags = ['system'];
/** The edge's certificates are the platform's: platform administrators holding the code. */
const allow = (code: SystemPermission) => [requirePlatformAdmin, requirePermission(code)];

export function registerCertificateRoutes(app: HttpApp, certificates: CertificatesService): void {
  app.get(
    '/api/v1/system/certificates',
    {
      onRequest: allow('system:cert:list'),
      schema: {
        tags,
        summary: 'The edge certificates, soonest to expire first (never a private key)',
        querystring: listCertificatesQuery,
        response: { 200: envelopeOf(listOf(certificateView)) },
      },
    },
    async (request) => ok(await certificates.list(request.query)),
  );
  app.get(
    '/api/v1/system/certificates/:id',
    {
      onRequest: allow('system:cert:list'),
      schema: {
        tags,
        summary: 'One certificate with its PEM and chain (never the private key)',
        params: idParams,
        response: { 200: envelopeOf(certificateDetail) },
      },
    },
    async (request) => ok(await certificates.get(request.params.id)),
  );
  app.post(
    '/api/v1/system/certificates',
    {
      onRequest: allow('system:cert:create'),
      schema: {
        tags,
        summary: 'Upload a PEM certificate (and chain) with its private key (checked to match)',
        body: uploadCertificateBody,
        response: { 200: envelopeOf(certificateView) },
      },
    },
    async (request) => ok(await certificates.upload(principalOf(request), request.body)),
  );
  app.delete(
    '/api/v1/system/certificates/:id',
    {
      onRequest: allow('system:cert:delete'),
      schema: {
        tags,
        summary: 'Delete a certificate and its key',
        params: idParams,
        response: { 200: envelopeOf(z.null()) },
      },
    },
    async (request) => {
      await certificates.remove(principalOf(request), request.params.id);
      return ok(null);
    },
  );
}
