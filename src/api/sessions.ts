// Login and logout, by GET and POST (docs/api.md, Signing in and out).
import { Type } from 'typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  EnvelopeOf,
  ErrorData,
  ErrorEnvelope,
  authSecurity,
  envelope,
  sendEnvelope,
  standardErrors,
} from '../http/envelope.js';
import { callerOf } from '../http/auth-hook.js';
import { mayTakeOwnAccountAction, requireOwnAccountAction } from '../auth/own-account-actions.js';
import { mustEnrolSecondFactor } from '../auth/guard.js';
import type { LoginResult, LoginService } from '../auth/login-service.js';
import { invalid } from '../lib/errors.js';
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

const MfaEnrolmentRequired = Type.Boolean({
  description:
    'true: the account holds a role of Settings:MfaRequiredRoles and has no second factor. Until it enrols one ' +
    '(POST /api/core/account/mfa/totp, then …/confirm), every other call of this session answers 403 ' +
    '`mfa_enrolment_required` (the session itself and the logout excepted)',
});

const LoginAnswer = EnvelopeOf(
  Type.Object({
    token: Type.String({ description: 'the JWT' }),
    token_type: Type.Literal('Bearer'),
    expires_at: Type.String({ description: 'ISO 8601 UTC' }),
    expires_in: Type.Integer({ description: 'seconds' }),
    username: Type.String(),
    password_change_required: PasswordChangeRequired,
    mfa_enrolment_required: MfaEnrolmentRequired,
    recovery_codes_left: Type.Optional(
      Type.Integer({ description: 'signed in with a recovery code: how many unused ones are left' }),
    ),
  }),
);

/** A failed login, or (code `mfa_required`) a right password with a second factor still due. */
const LoginRefusal = EnvelopeOf(
  Type.Object({
    ...ErrorData.properties,
    mfa_token: Type.Optional(
      Type.String({ description: 'mfa_required: for POST /api/core/account/login/mfa; single use, short-lived' }),
    ),
    methods: Type.Optional(Type.Array(Type.String(), { description: 'mfa_required: `totp`, `recovery_code`' })),
    expires_at: Type.Optional(Type.String({ description: 'mfa_required: when the mfa_token ends (ISO 8601 UTC)' })),
    expires_in: Type.Optional(Type.Integer({ description: 'mfa_required: seconds' })),
  }),
  'Failure',
);

const MfaLoginBody = Type.Object(
  {
    mfa_token: Type.String({ minLength: 1, maxLength: 128, description: 'what the password login answered' }),
    code: Type.Optional(Type.String({ pattern: '^[0-9]{6}$', description: 'the TOTP code' })),
    recovery_code: Type.Optional(
      Type.String({ minLength: 1, maxLength: 64, description: 'a recovery code (instead of `code`)' }),
    ),
    createCookie: Type.Optional(
      Type.Boolean({ default: false, description: 'also set the `ptoken` cookie (HttpOnly)' }),
    ),
  },
  { additionalProperties: false },
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
    mfa_enrolment_required: MfaEnrolmentRequired,
    second_factor: Type.Boolean({ description: 'the account has a second factor' }),
    mfa_at: Type.Union([Type.String({ description: 'ISO 8601 UTC' }), Type.Null()], {
      description: 'when this session passed the second factor; null: it did not',
    }),
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

/** A login's answer: the JWT (and the cookie when asked for). */
function answerSession(request: FastifyRequest, reply: FastifyReply, result: LoginResult, createCookie: boolean) {
  if (createCookie)
    reply.setCookie(SESSION_COOKIE, result.token, { ...sessionCookieAttributes(request), maxAge: result.expiresIn });
  return sendEnvelope(
    reply,
    {
      token: result.token,
      token_type: 'Bearer',
      expires_at: result.expiresAt.toISOString(),
      expires_in: result.expiresIn,
      username: result.username,
      password_change_required: result.passwordChangeRequired,
      mfa_enrolment_required: result.mfaEnrolmentRequired,
      ...(result.recoveryCodesLeft !== undefined ? { recovery_codes_left: result.recoveryCodesLeft } : {}),
    },
    result.passwordChangeRequired ? 'logged in; the password must be changed' : 'logged in',
  );
}

export const sessionRoutes: FastifyPluginAsyncTypebox<{
  login: LoginService;
  /** Settings:MfaRequiredRoles, for the session's answer. */
  mfaRequiredRoles: readonly string[];
}> = async (app, { login, mfaRequiredRoles }) => {
  app.post('/api/core/account/login', {
    // A NUL can be in no username or password: such a login is simply invalid credentials.
    config: { auth: 'none', acceptsNul: true },
    schema: {
      tags: ['auth'],
      summary: 'Log in with a password (or an API token as username `api`) and receive a JWT',
      body: LoginBody,
      response: { 200: LoginAnswer, 400: ErrorEnvelope, 401: LoginRefusal, 429: ErrorEnvelope },
    },
    handler: async (request, reply: FastifyReply) => {
      const { username, password, createCookie } = request.body;
      const result = await login.login(username, password, actorOf(request));
      if (result.kind === 'mfa_required') {
        const data = {
          code: 'mfa_required',
          mfa_token: result.mfaToken,
          methods: [...result.methods],
          expires_at: result.expiresAt.toISOString(),
          expires_in: result.expiresIn,
        };
        return reply.code(401).send(envelope(request, data, 'a second factor is required', false));
      }
      return answerSession(request, reply, result, createCookie === true);
    },
  });

  app.post('/api/core/account/login/mfa', {
    config: { auth: 'none' },
    schema: {
      tags: ['auth'],
      summary: 'The second step of a password login: the mfa_token and a TOTP or recovery code',
      description:
        'Give exactly one of `code` and `recovery_code`. Answers what a login answers. A wrong code answers ' +
        '401 `invalid_mfa_code` and counts towards the lockout of the second factor (`mfa_locked`); an ' +
        'unknown, expired or used mfa_token answers 401 `invalid_mfa_token`.',
      body: MfaLoginBody,
      response: { 200: LoginAnswer, 400: ErrorEnvelope, 401: ErrorEnvelope, 429: ErrorEnvelope },
    },
    handler: async (request, reply: FastifyReply) => {
      const { mfa_token, code, recovery_code, createCookie } = request.body;
      if ((code === undefined) === (recovery_code === undefined))
        throw invalid('invalid_input', 'give exactly one of code and recovery_code', [
          { field: 'code', rule: 'one_of', message: 'give exactly one of code and recovery_code' },
        ]);
      const proof = code !== undefined ? { code } : { recoveryCode: recovery_code ?? '' };
      const result = await login.loginWithMfa(mfa_token, proof, actorOf(request));
      return answerSession(request, reply, result, createCookie === true);
    },
  });

  // What a client (the admin console) needs to know of its own session without holding the JWT:
  // who it is, how it authenticated, and when the session ends.
  app.get('/api/core/account/session', {
    config: { passwordChangeExempt: true, mfaEnrolmentExempt: true },
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
          mfa_enrolment_required: mustEnrolSecondFactor(caller, mfaRequiredRoles),
          second_factor: caller.account.hasSecondFactor,
          mfa_at: caller.mfaAtMs === null ? null : new Date(caller.mfaAtMs).toISOString(),
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
    config: { changesState: true, passwordChangeExempt: true, mfaEnrolmentExempt: true },
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
