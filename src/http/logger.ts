// pino, one JSON line per event. Credentials never reach a log line: Authorization and Cookie
// headers, Set-Cookie, passwords and the value of a `ptoken` query parameter (in any spelling,
// src/http/url-redaction.ts) are redacted, also where an error message quotes a URL; and a last
// pass over each finished line redacts whatever still looks like an API token or a JWT, wherever
// it came from (a request id, a username typed at login, a message), and escapes the controls
// JSON leaves raw (DEL, C1, bidi), so that a terminal showing the log does not act on them.
import { pino, stdSerializers, type DestinationStream, type Logger } from 'pino';
import { redactRequestUrl, redactText } from './url-redaction.js';
import { escapeControls } from '../lib/visible-text.js';
import { redactCredentialShapes } from '../lib/credential-shapes.js';

/** A finished line as it is written. The escapes are JSON's own (`\u009b`), and only strings
 *  can hold such characters, so the line stays valid JSON with the same values. */
function finishLine(line: string): string {
  const redacted = redactCredentialShapes(line);
  return redacted.endsWith('\n') ? `${escapeControls(redacted.slice(0, -1))}\n` : escapeControls(redacted);
}

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
      // The redaction replaces part of a JSON string with text that has no quote or backslash,
      // so the line stays valid JSON.
      hooks: { streamWrite: finishLine },
    },
    destination,
  );
}
