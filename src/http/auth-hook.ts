// Authenticates each request before its handler. Routes say how much they need in their
// config: `auth: 'required'` (the default, so a new route is never open by accident),
// `'optional'` (ping: reports whether the caller is authenticated), or `'none'`.
import type {
  FastifyContextConfig,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  onRequestHookHandler,
} from 'fastify';
import type { Authenticator, Principal } from '../auth/authenticator.js';
import { findCredential, type Credential } from '../auth/credentials.js';
import {
  requireAnyRole,
  requireEnrolledSecondFactor,
  requireFreshSecondFactor,
  requirePrincipal,
  requireSettledPassword,
} from '../auth/guard.js';
import { assertSameOrigin } from './csrf.js';
import { TtlCache } from '../auth/ttl-cache.js';
import { missingHost } from './error-handler.js';
import { outcomeOf, UNMATCHED_ROUTE, type AuthKind, type Metrics } from '../metrics/metrics.js';

export type AuthMode = 'required' | 'optional' | 'none';

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: AuthMode;
    /** Any one of these roles is required. */
    roles?: readonly string[];
    /** The route changes state even on GET (logout), so a cookie-authenticated call must pass
     *  the cross-site check whatever its method (src/http/csrf.ts). */
    changesState?: boolean;
    /** Open to an account that must still replace a one-time password (its change, the session,
     *  the logout); every other route answers 403 password_change_required. */
    passwordChangeExempt?: boolean;
    /** For an account with a second factor, the session must have passed it recently
     *  (Settings:MfaFreshMinutes): creating tokens, changing the password or a factor. */
    stepUp?: boolean;
    /** Open to a password session that must still enrol a second factor (Settings:MfaRequiredRoles):
     *  the enrolment itself, the session, the logout; and every route open to a pending one-time
     *  password, so an account with both replaces the password first, then enrols. */
    mfaEnrolmentExempt?: boolean;
  }
  interface FastifyRequest {
    principal: Principal | null;
    /** The matched route's URL pattern (the metrics' label), set by the route's gate; for a
     *  request no route matched, UNMATCHED_ROUTE. Read instead of `routeOptions.url`, which
     *  builds a fresh object on every read. */
    routePattern: string;
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
// Keyed by the header's last characters (a JWT's are its signature's) and checked against the
// whole header on a hit. Why: a Map hashes a string key over its full length, and every request
// brings a fresh header string, so a ~350-character JWT header cost 0.4 µs of hashing per
// request, the largest single cost of a cached JWT request. Headers sharing a tail only evict
// each other's entry (a parse again), never answer for each other.
interface ParsedHeader {
  header: string;
  cred: Credential;
}
const headerCache = new TtlCache<string, ParsedHeader>(10_000);
const HEADER_CACHE_MS = 60_000;
const HEADER_KEY_CHARS = 32;

function parsedHeader(authorization: string): Credential | null {
  const key = authorization.length > HEADER_KEY_CHARS ? authorization.slice(-HEADER_KEY_CHARS) : authorization;
  const hit = headerCache.get(key);
  if (hit !== undefined && hit.header === authorization) return hit.cred;
  const cred = findCredential({ authorization, cookieToken: undefined, queryToken: undefined });
  if (cred) headerCache.set(key, { header: authorization, cred }, HEADER_CACHE_MS);
  return cred;
}

/** The metrics' name of a credential's kind. */
const AUTH_KIND: Record<Credential['kind'], AuthKind> = { jwt: 'jwt', api_token: 'token', malformed: 'malformed' };

export interface AuthenticationOptions {
  auth: Authenticator;
  /** Origins a cookie-authenticated call may come from (src/http/csrf.ts). */
  allowedOrigins: readonly string[];
  metrics: Metrics;
  /** Ties each reply to its response for the metrics and access lines (src/http/response-end.ts). */
  track: (reply: FastifyReply) => void;
  /** Settings:MfaFreshMinutes and Settings:MfaRequiredRoles. */
  mfa: { freshMinutes: number; requiredRoles: readonly string[] };
}

/** What a route's gate checks after authentication, from its config. */
interface RouteChecks {
  roles: readonly string[] | undefined;
  changesState: boolean;
  passwordChangeExempt: boolean;
  mfaEnrolmentExempt: boolean;
  stepUp: boolean;
}

export function installAuthentication(
  app: FastifyInstance,
  { auth, allowedOrigins, metrics, track, mfa }: AuthenticationOptions,
): void {
  app.decorateRequest('principal', null);
  app.decorateRequest('routePattern', UNMATCHED_ROUTE);

  // Each route gets its own gate, built once from its config: the per-request path then reads
  // no route options (Fastify 5 builds a fresh frozen object on every `request.routeOptions`).
  // The gate is the route's one onRequest hook (every hook costs on every request): route
  // pattern and response tracking, request id header, Host check, then authentication. A
  // callback hook, not an async one: when the credential and its account are cached (nearly
  // always) the request is authenticated synchronously, without a promise or a microtask turn.
  app.addHook('onRoute', (route) => {
    // Read on the first request: onRoute hooks of child scopes (the /docs UI marks its routes
    // public) run after this one and may still replace the config.
    let gate: onRequestHookHandler | undefined;
    const lazyGate: onRequestHookHandler = function (request, reply, done) {
      const config: FastifyContextConfig = route.config ?? {};
      const mode = config.auth ?? 'required';
      // An optional route (ping) only reports who is calling: open to a pending password too.
      const exempt = config.passwordChangeExempt === true || mode === 'optional';
      gate ??= makeGate(route.url, mode, {
        roles: config.roles,
        changesState: config.changesState === true,
        passwordChangeExempt: exempt,
        mfaEnrolmentExempt: exempt || config.mfaEnrolmentExempt === true,
        stepUp: config.stepUp === true,
      });
      return gate.call(this, request, reply, done);
    };
    const existing = route.onRequest;
    route.onRequest =
      existing === undefined ? [lazyGate] : [lazyGate, ...(Array.isArray(existing) ? existing : [existing])];
  });

  function makeGate(pattern: string, mode: AuthMode, checks: RouteChecks): onRequestHookHandler {
    return (request, reply, done) => {
      request.routePattern = pattern;
      track(reply);
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
      if (principal !== undefined) return authorize(request, checks, cred, principal, done);
      const presented = cred;
      auth.authenticate(presented).then(
        (p) => authorize(request, checks, presented, p, done),
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
    checks: RouteChecks,
    cred: Credential,
    principal: Principal,
    done: (err?: Error) => void,
  ): void {
    request.principal = principal;
    metrics.authOutcome(AUTH_KIND[cred.kind], cred.source, 'ok');
    try {
      if (cred.source === 'cookie') assertSameOrigin(request, allowedOrigins, checks.changesState);
      if (!checks.passwordChangeExempt) requireSettledPassword(principal);
      if (!checks.mfaEnrolmentExempt) requireEnrolledSecondFactor(principal, mfa.requiredRoles);
      if (checks.roles) requireAnyRole(principal, checks.roles);
      if (checks.stepUp) requireFreshSecondFactor(principal, mfa.freshMinutes);
    } catch (err) {
      done(err as Error);
      return;
    }
    done();
  }
}

/** The authenticated caller of a route whose auth mode is `required`. */
export const callerOf = (request: FastifyRequest): Principal => requirePrincipal(request.principal);
