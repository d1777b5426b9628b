// A cookie is sent by the browser on cross-site requests too, so a state-changing request
// authenticated by the cookie must prove it comes from our own origin (or an allowed one).
// Header credentials are not sent automatically by browsers and need no such check.
import type { FastifyRequest } from 'fastify';
import { forbidden } from '../lib/errors.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function assertSameOrigin(request: FastifyRequest, allowedOrigins: readonly string[]): void {
  if (SAFE_METHODS.has(request.method)) return;
  const fetchSite = request.headers['sec-fetch-site'];
  if (fetchSite === 'same-origin') return;
  const origin = request.headers.origin ?? refererOrigin(request.headers.referer);
  const own = `${request.protocol}://${request.host}`;
  if (origin && (origin === own || allowedOrigins.includes(origin))) return;
  throw forbidden('csrf_rejected', 'Cross-site request rejected: cookie-authenticated changes need a same-origin Origin header');
}

function refererOrigin(referer: string | undefined): string | undefined {
  if (!referer) return undefined;
  try {
    return new URL(referer).origin;
  } catch {
    return undefined;
  }
}
