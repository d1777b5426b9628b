// Authenticates each request before its handler. Routes say how much they need in their
// config: `auth: 'required'` (the default, so a new route is never open by accident),
// `'optional'` (ping: reports whether the caller is authenticated), or `'none'`.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Authenticator, Principal } from '../auth/authenticator.js';
import { findCredential } from '../auth/credentials.js';
import { requireAnyRole, requirePrincipal } from '../auth/guard.js';
import { assertSameOrigin } from './csrf.js';

export type AuthMode = 'required' | 'optional' | 'none';

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: AuthMode;
    /** Any one of these roles is required. */
    roles?: readonly string[];
  }
  interface FastifyRequest {
    principal: Principal | null;
  }
}

function queryToken(request: FastifyRequest): string | undefined {
  const q = request.query as Record<string, unknown> | undefined;
  const v = q?.ptoken;
  if (v === undefined) return undefined;
  // Repeated or non-string values cannot be a credential; an empty string keeps it "presented".
  return typeof v === 'string' ? v : '\u0000';
}

export function installAuthentication(app: FastifyInstance, auth: Authenticator, allowedOrigins: readonly string[]): void {
  app.decorateRequest('principal', null);
  app.addHook('onRequest', async (request) => {
    if (request.is404) return;
    const config = request.routeOptions.config;
    const mode: AuthMode = config.auth ?? 'required';
    if (mode === 'none') return;
    const cred = findCredential({
      authorization: request.headers.authorization,
      cookieToken: request.cookies?.ptoken,
      queryToken: queryToken(request),
    });
    if (cred === null) {
      if (mode === 'required') requirePrincipal(null);
      return;
    }
    try {
      request.principal = await auth.authenticate(cred);
    } catch (err) {
      if (mode === 'optional') {
        request.log.info({ code: (err as { code?: string }).code }, 'optional authentication failed');
        return;
      }
      throw err;
    }
    if (cred.source === 'cookie') assertSameOrigin(request, allowedOrigins);
    if (config.roles) requireAnyRole(request.principal, config.roles);
  });
}

/** The authenticated caller of a route whose auth mode is `required`. */
export const callerOf = (request: FastifyRequest): Principal => requirePrincipal(request.principal);
