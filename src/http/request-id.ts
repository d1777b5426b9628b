import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { CREDENTIAL_START } from '../lib/credential-shapes.js';

/** A client's own id is kept only when it is short and plain: it is bound to every log line of
 *  the request and echoed in the answer. */
const CLIENT_ID = /^[A-Za-z0-9._-]{1,64}$/;

// A random prefix per process and a counter: unique across instances and restarts, and much
// cheaper per request than a random UUID (ids need to be unique, not secret).
const PREFIX = randomBytes(6).toString('base64url').replace(/[-_]/g, 'x');
let counter = 0;

/** Whether a client's X-Request-Id is kept as the request's id: an API token or a JWT sent by
 *  mistake as the id is replaced, so the secret is neither logged nor echoed. */
export const isAcceptableRequestId = (id: string): boolean => CLIENT_ID.test(id) && !CREDENTIAL_START.test(id);

/** The incoming X-Request-Id when it is acceptable, else a new one (docs/api.md, The envelope). */
export function requestIdFor(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  if (typeof given === 'string' && isAcceptableRequestId(given)) return given;
  counter = (counter + 1) % Number.MAX_SAFE_INTEGER;
  return `${PREFIX}-${counter.toString(36)}`;
}
