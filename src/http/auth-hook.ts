// Authenticates each request before its handler. Routes say how much they need in their
// config: `auth: 'required'` (the default, so a new route is never open by accident),
// `'optional'` (ping: reports whether the caller is authenticated), or `'none'`.
import type { FastifyContextConfig, FastifyInstance, FastifyRequest, onRequestHookHandler } from 'fastify';
import type { Authenticator, Principal } from '../auth/authenticator.js';
import { findCredential, type Credential } from '../auth/credentials.js';
import { requireAnyRole, requirePrincipal } from '../auth/guard.js';
import { assertSameOrigin } from './csrf.js';
import { TtlCache } from '../auth/ttl-cache.js';
import { missingHost } from './error-handler.js';
import { outcomeOf, type AuthKind, type Metrics } from '../metrics/metrics.js';

export type AuthMode = 'required' | 'optional' | 'none';

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: AuthMode;
    /** Any one of these roles is required. */
    roles?: readonly string[];
    /** The route changes state even on GET (logout), so a cookie-authenticated call must pass
     *  the cross-site check whatever its method (src/http/csrf.ts). */
    changesState?: boolean;
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

function cookieToken(request: FastifyRequest): string | undefined {
  const header = request.headers.cookie;
  return header ? request.server.parseCookie(header).ptoken : undefined;
}

// Parsed Authorization headers (scheme, base64, shape and checksum checks) for repeat callers.
// Only the parse is cached; every request still checks the credential and its account.
const headerCache = new TtlCache<string, Credential>(10_000);
const HEADER_CACHE_MS = 60_000;

function parsedHeader(authorization: string): Credential | null {
  const hit = headerCache.get(authorization);
  if (hit) return hit;
  const cred = findCredential({ authorization, cookieToken: undefined, queryToken: undefined });
  if (cred) headerCache.set(authorization, cred, HEADER_CACHE_MS);
  return cred;
}

/** The metrics' name of a credential's kind. */
const AUTH_KIND: Record<Credential['kind'], AuthKind> = { jwt: 'jwt', api_token: 'token', malformed: 'malformed' };

export function installAuthentication(
  app: FastifyInstance,
  auth: Authenticator,
  allowedOrigins: readonly string[],
  metrics: Metrics,
): void {
  app.decorateRequest('principal', null);

  // Each route gets its own gate, built once from its config: the per-request path then reads
  // no route options (Fastify 5 builds a fresh frozen object on every `request.routeOptions`).
  // The gate is the route's one onRequest hook (every hook costs on every request): request id
  // header, Host check, then authentication. A callback hook, not an async one: when the
  // credential and its account are cached (nearly always) the request is authenticated
  // synchronously, without a promise or a microtask turn.
  app.addHook('onRoute', (route) => {
    // Read on the first request: onRoute hooks of child scopes (the /docs UI marks its routes
    // public) run after this one and may still replace the config.
    let gate: onRequestHookHandler | undefined;
    const lazyGate: onRequestHookHandler = function (request, reply, done) {
      const config: FastifyContextConfig = route.config ?? {};
      gate ??= makeGate(config.auth ?? 'required', config.roles, config.changesState === true);
      return gate.call(this, request, reply, done);
    };
    const existing = route.onRequest;
    route.onRequest =
      existing === undefined ? [lazyGate] : [lazyGate, ...(Array.isArray(existing) ? existing : [existing])];
  });

  function makeGate(mode: AuthMode, roles: readonly string[] | undefined, changesState: boolean): onRequestHookHandler {
    return (request, reply, done) => {
      reply.header('X-Request-Id', request.id);
      const hostError = missingHost(request);
      if (hostError) return done(hostError);
      if (mode === 'none') return done();
      let cred: Credential | null = null;
      let principal: Principal | undefined;
      try {
        const authorization = request.headers.authorization;
        // A blank header is no credential: the cookie and the query are then looked at.
        cred =
          authorization !== undefined && authorization.trim() !== ''
            ? parsedHeader(authorization)
            : findCredential({ authorization, cookieToken: cookieToken(request), queryToken: queryToken(request) });
        if (cred === null) {
          if (mode === 'optional') return done();
          metrics.authOutcome('none', 'none', 'missing');
          requirePrincipal(null);
          return done();
        }
        principal = auth.authenticateCached(cred);
      } catch (err) {
        return authFailed(request, mode, err, done, cred);
      }
      if (principal !== undefined) return authorize(request, roles, changesState, cred, principal, done);
      const presented = cred;
      auth.authenticate(presented).then(
        (p) => authorize(request, roles, changesState, presented, p, done),
        (err: unknown) => authFailed(request, mode, err, done, presented),
      );
    };
  }

  function authFailed(
    request: FastifyRequest,
    mode: AuthMode,
    err: unknown,
    done: (err?: Error) => void,
    cred: Credential | null,
  ): void {
    if (cred) metrics.authOutcome(AUTH_KIND[cred.kind], cred.source, outcomeOf(err));
    if (mode === 'optional') {
      request.log.info({ code: (err as { code?: string }).code }, 'optional authentication failed');
      done();
      return;
    }
    done(err as Error);
  }

  function authorize(
    request: FastifyRequest,
    roles: readonly string[] | undefined,
    changesState: boolean,
    cred: Credential,
    principal: Principal,
    done: (err?: Error) => void,
  ): void {
    request.principal = principal;
    metrics.authOutcome(AUTH_KIND[cred.kind], cred.source, 'ok');
    try {
      if (cred.source === 'cookie') assertSameOrigin(request, allowedOrigins, changesState);
      if (roles) requireAnyRole(principal, roles);
    } catch (err) {
      done(err as Error);
      return;
    }
    done();
  }
}

/** The authenticated caller of a route whose auth mode is `required`. */
export const callerOf = (request: FastifyRequest): Principal => requirePrincipal(request.principal);
