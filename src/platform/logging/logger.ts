import { pino, type DestinationStream, type Logger } from 'pino';

/**
 * Structured JSON logs; secrets are redacted wherever they appear in a logged object. Written
 * to stdout unless a `destination` is given (tests read what the platform logs).
 */
export function createLogger(
  level: string,
  base: Record<string, unknown> = {},
  destination?: DestinationStream,
): Logger {
  const options = {
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
  };
  return destination ? pino(options, destination) : pino(options);
}
