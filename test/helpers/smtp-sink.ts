import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface Received {
  to: string[];
  raw: string;
}

export type SmtpSink = Awaited<ReturnType<typeof startSmtpSink>>;

/** A local SMTP sink: every message it accepts lands in `inbox`. */
export async function startSmtpSink() {
  const inbox: Received[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        inbox.push({
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return { inbox, port, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/** The settings that send a platform's mail to the sink. */
export const smtpSettings = (sink: SmtpSink) => ({
  MAIL_ENABLED: 'true',
  SMTP_HOST: '127.0.0.1',
  SMTP_PORT: String(sink.port),
  MAIL_FROM: 'approva@test.example',
});

/** The first message to `address` after the first `after` of the inbox (waits up to 10 s). */
export async function waitForMail(sink: SmtpSink, address: string, after = 0): Promise<Received> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const found = sink.inbox.slice(after).find((m) => m.to.includes(address));
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no mail to ${address}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
