import nodemailer from 'nodemailer';
import type { Logger } from 'pino';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/** Sends platform mail; `undefined` when mail is not configured. */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): void;
}

export interface MailSettings {
  enabled: boolean;
  host: string | undefined;
  port: number;
  secure: boolean;
  user: string | undefined;
  password: string | undefined;
  from: string;
}

/** SMTP through nodemailer when MAIL_ENABLED and SMTP_HOST are set; otherwise none. */
export function openMailer(settings: MailSettings, logger: Logger): Mailer | undefined {
  if (!settings.enabled || !settings.host) return undefined;
  const transport = nodemailer.createTransport({
    host: settings.host,
    port: settings.port,
    secure: settings.secure,
    ...(settings.user ? { auth: { user: settings.user, pass: settings.password ?? '' } } : {}),
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  });
  return {
    async send(message) {
      const info = await transport.sendMail({ from: settings.from, ...message });
      logger.info({ message_id: info.messageId }, 'mail sent');
    },
    close: () => transport.close(),
  };
}
