// pino, one JSON line per event. Credentials never reach a log line: Authorization and Cookie
// headers, Set-Cookie, passwords and the value of a `ptoken` query parameter are redacted.
import { pino, type DestinationStream, type Logger } from 'pino';

export const redactUrl = (url: string): string => url.replace(/([?&]ptoken=)[^&#]*/gi, '$1[REDACTED]');

export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      redact: {
        paths: [
          'req.headers.authorization',
          'req.headers.cookie',
          'res.headers["set-cookie"]',
          'headers.authorization',
          'headers.cookie',
          // Top-level only: wildcard paths make pino rebuild redaction for every child logger.
          'password',
          'token',
        ],
        censor: '[REDACTED]',
      },
      serializers: {
        req: (req: { method?: string; url?: string; ip?: string }) => ({ method: req.method, url: redactUrl(req.url ?? ''), remoteAddress: req.ip }),
      },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    destination,
  );
}
