// pino, one JSON line per event. Credentials never reach a log line: Authorization and Cookie
// headers, Set-Cookie, passwords and the value of a `ptoken` query parameter (in any spelling,
// src/http/url-redaction.ts) are redacted, also where an error message quotes a URL.
import { pino, stdSerializers, type DestinationStream, type Logger } from 'pino';
import { redactRequestUrl, redactText } from './url-redaction.js';

/** A copy of a value from a serialized error with URLs in its strings (message, stack, causes,
 *  custom fields) redacted; the serializer shares nested values with the error, so never in place. */
function redactErrorText(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return redactText(value);
  if (value === null || typeof value !== 'object' || depth > 4) return value;
  if (Array.isArray(value)) return value.map((v) => redactErrorText(v, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([key, v]) => [key, redactErrorText(v, depth + 1)]));
}

/** pino's error serializer, then its own fields (a fresh object) redacted. */
function serializeError(err: Error): unknown {
  const serialized = stdSerializers.err(err) as unknown as Record<string, unknown>;
  if (serialized === null || typeof serialized !== 'object') return serialized;
  for (const [key, v] of Object.entries(serialized)) serialized[key] = redactErrorText(v, 1);
  return serialized;
}

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
        req: (req: { method?: string; url?: string; ip?: string; query?: unknown }) => ({
          method: req.method,
          url: redactRequestUrl(req.url ?? '', req.query),
          remoteAddress: req.ip,
        }),
        // Some errors quote the URL (Fastify's bad-URL error does).
        err: serializeError,
      },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    destination,
  );
}
