import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

const SANE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The incoming X-Request-Id when it is a sane token, else a new one (CONTRACT.md). */
export function requestIdFor(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && SANE_ID.test(given) ? given : randomUUID();
}
