import { principalOf } from '../../../platform/auth/guard.js';
import { envelopeOf, ok } from '../../../platform/http/envelope.js';
import { idParams } from '../../../platform/http/params.js';
import type { HttpApp } from '../../../platform/http/server.js';
import { z } from 'zod';
import { absenceBody, absenceView, setAbsenceView } from './out-of-office.schema.js';
import type { OutOfOfficeService } from './out-of-office.service.js';

const tags = ['bpm'];

/** The caller's out-of-office period, and any user's for a platform admin (40301 for others). */
export function registerOutOfOfficeRoutes(app: HttpApp, service: OutOfOfficeService): void {
  const nothing = envelopeOf(z.null());
  for (const admin of [false, true]) {
    const path = admin ? '/api/v1/bpm/out-of-office/users/:id' : '/api/v1/bpm/out-of-office';
    const whose = admin ? 'a user (platform admin)' : 'the caller';
    const params = admin ? { params: idParams } : {};
    const subject = (request: { params: unknown }, userId: number) =>
      admin ? (request.params as { id: number }).id : userId;
    app.get(
      path,
      {
        schema: {
          tags,
          summary: `Out of office of ${whose} (null when none is set)`,
          ...params,
          response: { 200: envelopeOf(absenceView.nullable()) },
        },
      },
      async (request) => {
        const principal = principalOf(request);
        return ok(await service.get(principal, subject(request, principal.userId)));
      },
    );
    app.put(
      path,
      {
        schema: {
          tags,
          summary: `Set the out-of-office period of ${whose}`,
          ...params,
          body: absenceBody,
          response: { 200: envelopeOf(setAbsenceView) },
        },
      },
      async (request) => {
        const principal = principalOf(request);
        const userId = subject(request, principal.userId);
        return ok(await service.set(principal, userId, request.body));
      },
    );
    app.delete(
      path,
      {
        schema: {
          tags,
          summary: `Clear the out-of-office period of ${whose} (idempotent)`,
          ...params,
          response: { 200: nothing },
        },
      },
      async (request) => {
        const principal = principalOf(request);
        return ok(await service.remove(principal, subject(request, principal.userId)));
      },
    );
  }
}
