// A cookie is sent by the browser on cross-site requests too, so a state-changing request
// authenticated by the cookie must prove it comes from our own origin (or an allowed one).
// Header credentials are not sent automatically by browsers and need no such check.
//
// The proof:
// - Sec-Fetch-Site, which the browser sets and no page can: `same-origin` passes. Any other value
//   — `same-site`, `cross-site`, or `none` (a URL typed, bookmarked, or opened from another
//   application such as a mail client) — passes only with an Origin header that is allowed (a
//   front end on an origin of Settings:AllowedOrigins calling with fetch). The Referer is not
//   believed then: it survives redirects, so a link on one of our pages to a site that
//   redirects back here would carry our own origin.
// - Without Sec-Fetch-Site (an older browser): the Origin, or failing that the Referer's origin,
//   must be ours or allowed.
// - Neither (a client that is no browser but sends the cookie): refused; such clients send the
//   credential in the Authorization header.
// GET, HEAD and OPTIONS change nothing and are not checked, except on a route that changes state
// whatever its method (logout: `config.changesState`). A top-level cross-site link is a GET
// that SameSite=Lax lets the cookie through on.
import type { FastifyRequest } from 'fastify';
import { forbidden } from '../lib/errors.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function assertSameOrigin(
  request: FastifyRequest,
  allowedOrigins: readonly string[],
  changesStateOnAnyMethod = false,
): void {
  if (!changesStateOnAnyMethod && SAFE_METHODS.has(request.method)) return;
  const own = `${request.protocol}://${request.host}`;
  const isAllowed = (origin: string | undefined): boolean =>
    origin !== undefined && (origin === own || allowedOrigins.includes(origin));
  const fetchSite = request.headers['sec-fetch-site'];
  if (fetchSite !== undefined) {
    if (fetchSite === 'same-origin' || isAllowed(request.headers.origin)) return;
  } else if (isAllowed(request.headers.origin ?? refererOrigin(request.headers.referer))) {
    return;
  }
  throw forbidden(
    'csrf_rejected',
    'Cross-site request rejected: cookie-authenticated changes need a same-origin Origin header',
  );
}

function refererOrigin(referer: string | undefined): string | undefined {
  if (!referer) return undefined;
  try {
    return new URL(referer).origin;
  } catch {
    return undefined;
  }
}
