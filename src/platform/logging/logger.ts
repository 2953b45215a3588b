import { pino, type Logger } from 'pino';

/** Structured JSON logs; secrets are redacted wherever they appear in a logged object. */
export function createLogger(level: string, base: Record<string, unknown> = {}): Logger {
  return pino({
    level,
    base: { app: 'approva', ...base },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'headers.authorization',
        '*.password',
        '*.new_password',
        '*.old_password',
        '*.refresh_token',
        '*.access_token',
        '*.token',
        '*.secret',
      ],
      censor: '***',
    },
  });
}
