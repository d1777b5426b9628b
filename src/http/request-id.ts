import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

const SANE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

// A random prefix per process and a counter: unique across instances and restarts, and much
// cheaper per request than a random UUID (ids need to be unique, not secret).
const PREFIX = randomBytes(6).toString('base64url').replace(/[-_]/g, 'x');
let counter = 0;

/** The incoming X-Request-Id when it is a sane token, else a new one (CONTRACT.md). */
export function requestIdFor(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  if (typeof given === 'string' && SANE_ID.test(given)) return given;
  counter = (counter + 1) % Number.MAX_SAFE_INTEGER;
  return `${PREFIX}-${counter.toString(36)}`;
}
