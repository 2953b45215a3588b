import { envelopeOf, ok } from '../../../platform/http/envelope.js';
import type { HttpApp } from '../../../platform/http/server.js';
import { internalTokenGuard } from './internal-token.js';
import { sendSmsBody, smsSentView } from './sms.schema.js';
import type { SmsService } from './sms.service.js';

/** The in-container entry: on the service's own port, never a gateway route (not in the API document). */
export const SMS_SEND_PATH = '/internal/sms/send';

export function registerSmsRoutes(app: HttpApp, sms: SmsService, token: string | undefined): void {
  app.post(
    SMS_SEND_PATH,
    {
      onRequest: internalTokenGuard(token),
      schema: { hide: true, body: sendSmsBody, response: { 200: envelopeOf(smsSentView) } },
    },
    async (request) => ok(await sms.send(request.body)),
  );
}
