// Login and logout, by GET and POST (docs/api.md, Signing in and out).
import { Type } from 'typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { EnvelopeOf, ErrorEnvelope, authSecurity, sendEnvelope, standardErrors } from '../http/envelope.js';
import { callerOf } from '../http/auth-hook.js';
import { mayTakeOwnAccountAction, requireOwnAccountAction } from '../auth/own-account-actions.js';
import type { LoginService } from '../auth/login-service.js';
import { actorOf } from '../http/audit-actor.js';

export const SESSION_COOKIE = 'ptoken';

const LoginBody = Type.Object({
  username: Type.String({
    minLength: 1,
    maxLength: 256,
    description: 'the username, or the literal `api` to log in with an API token',
  }),
  password: Type.String({
    minLength: 1,
    maxLength: 4096,
    description: 'the password, or the API token when username is `api`',
  }),
  createCookie: Type.Optional(Type.Boolean({ default: false, description: 'also set the `ptoken` cookie (HttpOnly)' })),
});

const PasswordChangeRequired = Type.Boolean({
  description:
    'true: the password is one-time (the generated bootstrap administrator password). Until it is replaced ' +
    'with POST /api/core/account/password, every other call of this session answers 403 ' +
    '`password_change_required` (the session itself and the logout excepted)',
});

const LoginAnswer = EnvelopeOf(
  Type.Object({
    token: Type.String({ description: 'the JWT' }),
    token_type: Type.Literal('Bearer'),
    expires_at: Type.String({ description: 'ISO 8601 UTC' }),
    expires_in: Type.Integer({ description: 'seconds' }),
    username: Type.String(),
    password_change_required: PasswordChangeRequired,
  }),
);

const SessionAnswer = EnvelopeOf(
  Type.Object({
    username: Type.String(),
    user_id: Type.String(),
    via: Type.Union([Type.Literal('jwt'), Type.Literal('api_token')]),
    source: Type.String({ description: 'where the credential came from: header, cookie or query' }),
    expires_at: Type.Union([Type.String({ description: 'ISO 8601 UTC' }), Type.Null()], {
      description: 'when the credential ends; null: an API token without expiry',
    }),
    roles: Type.Array(Type.String(), { description: "the roles this credential acts with (a scoped token's fewer)" }),
    scoped: Type.Boolean(),
    password_change_required: PasswordChangeRequired,
  }),
);

const LogoutAnswer = EnvelopeOf(
  Type.Object({
    username: Type.String(),
    sessions_ended: Type.Boolean({
      description: 'false for a scoped credential without sys_administrator: only the cookie was cleared',
    }),
  }),
);

/** The session cookie's attributes. Secure when the request came over TLS: to this server, or
 *  to a proxy it trusts (Settings:TrustProxy), which says so in X-Forwarded-Proto (in any case). */
function sessionCookieAttributes(request: FastifyRequest) {
  return {
    httpOnly: true,
    sameSite: 'lax' as const,
    path: '/',
    secure: request.protocol?.toLowerCase() === 'https',
  };
}

export const sessionRoutes: FastifyPluginAsyncTypebox<{ login: LoginService }> = async (app, { login }) => {
  app.post('/api/core/account/login', {
    // A NUL can be in no username or password: such a login is simply invalid credentials.
    config: { auth: 'none', acceptsNul: true },
    schema: {
      tags: ['auth'],
      summary: 'Log in with a password (or an API token as username `api`) and receive a JWT',
      body: LoginBody,
      response: { 200: LoginAnswer, 400: ErrorEnvelope, 401: ErrorEnvelope, 429: ErrorEnvelope },
    },
    handler: async (request, reply: FastifyReply) => {
      const { username, password, createCookie } = request.body;
      const result = await login.login(username, password, actorOf(request));
      if (createCookie)
        reply.setCookie(SESSION_COOKIE, result.token, {
          ...sessionCookieAttributes(request),
          maxAge: result.expiresIn,
        });
      return sendEnvelope(
        reply,
        {
          token: result.token,
          token_type: 'Bearer',
          expires_at: result.expiresAt.toISOString(),
          expires_in: result.expiresIn,
          username: result.username,
          password_change_required: result.passwordChangeRequired,
        },
        result.passwordChangeRequired ? 'logged in; the password must be changed' : 'logged in',
      );
    },
  });

  // What a client (the admin console) needs to know of its own session without holding the JWT:
  // who it is, how it authenticated, and when the session ends.
  app.get('/api/core/account/session', {
    config: { passwordChangeExempt: true },
    schema: {
      tags: ['auth'],
      summary: "The caller's session: who, by which credential, until when",
      security: authSecurity,
      response: { 200: SessionAnswer, ...standardErrors },
    },
    handler: async (request, reply) => {
      const caller = requireOwnAccountAction(request.principal, 'read_session');
      return sendEnvelope(
        reply,
        {
          username: caller.account.username,
          user_id: caller.account.id,
          via: caller.via,
          source: caller.source,
          expires_at: caller.expiresAtMs === null ? null : new Date(caller.expiresAtMs).toISOString(),
          roles: [...caller.account.roles].sort(),
          scoped: caller.scope !== undefined,
          password_change_required: caller.account.mustChangePassword,
        },
        'session',
      );
    },
  });

  // GET is the contract's; POST is what a state change should be. Both end the sessions, so a
  // cookie-authenticated call must come from our own origin on either (a cross-site
  // link is a GET the SameSite=Lax cookie goes along with).
  app.route({
    method: ['GET', 'POST'],
    url: '/api/core/account/logout',
    config: { changesState: true, passwordChangeExempt: true },
    schema: {
      tags: ['auth'],
      summary: 'End every JWT session of the caller (API tokens stay valid)',
      description:
        "Authenticated by the `ptoken` cookie, the call must come from the server's own origin (or one of " +
        'Settings:AllowedOrigins), on GET as on POST: 403 `csrf_rejected` otherwise. A scoped credential ' +
        "(a limited API token, or a JWT obtained with one) ends the owner's sessions only if its scope holds " +
        'sys_administrator; otherwise only the cookie is cleared and `sessions_ended` is false.',
      security: authSecurity,
      response: { 200: LogoutAnswer, ...standardErrors },
    },
    handler: async (request, reply) => {
      const caller = callerOf(request);
      // A narrow credential signs its own client out (the cookie) but cannot sign the owner out
      // everywhere; answered 200 so a console signed in with it can still sign out.
      const endSessions = mayTakeOwnAccountAction(caller, 'end_sessions');
      if (endSessions) await login.logout(actorOf(request));
      reply.clearCookie(SESSION_COOKIE, sessionCookieAttributes(request));
      const message = endSessions ? 'logged out' : 'cookie cleared; this credential cannot end the sessions';
      return sendEnvelope(reply, { username: caller.account.username, sessions_ended: endSessions }, message);
    },
  });
};
