import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string[];
  raw: string;
}

/** A local SMTP sink: every message it accepts lands in `inbox`. */
export async function startSmtpSink() {
  const inbox: ReceivedMail[] = [];
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
  /** The first message to `address` after the `after` first ones, waiting up to 10 s. */
  const mailTo = async (address: string, after = 0) => {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const found = inbox.slice(after).find((m) => m.to.includes(address));
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no mail to ${address}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  return {
    inbox,
    port,
    mailTo,
    /** Settings that send the platform's mail here. */
    env: {
      MAIL_ENABLED: 'true',
      SMTP_HOST: '127.0.0.1',
      SMTP_PORT: String(port),
      MAIL_FROM: 'approva@test.example',
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
