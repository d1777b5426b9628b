// The token routes (docs/api.md, Tokens). Handlers only check shapes and call the token service.
import { Type, type Static } from 'typebox';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { EnvelopeOf, sendEnvelope, standardErrors, ErrorEnvelope, authSecurity } from '../http/envelope.js';
import { callerOf } from '../http/auth-hook.js';
import { requireAccountAction, requireOwnAccountAction } from '../auth/own-account-actions.js';
import { sameUsername, USERNAME_PATTERN } from '../identity/usernames.js';
import { ROLE_NAME_PATTERN } from '../accounts/roles-repository.js';
import type { Principal } from '../auth/authenticator.js';
import {
  MAX_TOKEN_DAYS,
  TOKEN_NAME_PATTERN,
  TokenRecordSchema,
  type TokenLimits,
  type TokenService,
} from '../tokens/token-service.js';
import { optionalBody } from '../http/validation.js';
import { actorOf } from '../http/audit-actor.js';

const TokenList = EnvelopeOf(Type.Object({ items: Type.Array(TokenRecordSchema) }));
const TokenItem = EnvelopeOf(Type.Object({ item: TokenRecordSchema }));
const TokenName = Type.String({ pattern: TOKEN_NAME_PATTERN, description: '1–64 of A-Z a-z 0-9 . _ -' });
const Username = Type.String({ pattern: USERNAME_PATTERN });
const security = authSecurity;
const tags = ['tokens'];

const listMessage = (n: number) => `${n} tokens`;

const ExpiresInDays = Type.Integer({
  minimum: 1,
  maximum: MAX_TOKEN_DAYS,
  description: 'the token expires this many days from now (401 token_expired from then on); default: never',
});
const ROLES_HELP = "the roles the token may use, each one the owner holds; default: all of the owner's roles";
/** Token limits in the JSON body (optional; the query string wins). */
const LimitsBody = optionalBody(
  Type.Object(
    {
      expires_in_days: Type.Optional(ExpiresInDays),
      roles: Type.Optional(
        Type.Array(Type.String({ pattern: ROLE_NAME_PATTERN }), { maxItems: 100, description: ROLES_HELP }),
      ),
    },
    { additionalProperties: false },
  ),
);
/** The same limits in the query string: `roles` repeated and/or comma-separated. */
const LimitsQuery = Type.Object({
  expires_in_days: Type.Optional(ExpiresInDays),
  roles: Type.Optional(
    Type.Array(Type.String({ maxLength: 4096 }), { maxItems: 100, description: `${ROLES_HELP} (comma-separated)` }),
  ),
});

/** The limits of a create request; a caller acting with a scoped or expiring credential passes
 *  its scope and its end on, so what it creates has no more power and lives no longer. */
function limitsOf(request: FastifyRequest, caller: Principal): TokenLimits {
  const query = request.query as Static<typeof LimitsQuery>;
  const body = (request.body ?? {}) as Static<typeof LimitsBody>;
  const days = query.expires_in_days ?? body.expires_in_days;
  const roles =
    query.roles !== undefined
      ? query.roles.flatMap((r) => r.split(',').map((x) => x.trim())).filter((r) => r !== '')
      : body.roles;
  return {
    ...(days !== undefined ? { expiresInDays: days } : {}),
    ...(roles !== undefined ? { roles } : {}),
    ...(caller.scope ? { within: caller.account.roles } : {}),
    ...(caller.authorityEndsAtMs !== null ? { notAfterMs: caller.authorityEndsAtMs } : {}),
  };
}

export const tokenRoutes: FastifyPluginAsyncTypebox<{ tokens: TokenService }> = async (app, { tokens }) => {
  app.get('/api/core/token/user', {
    schema: { tags, security, summary: "The caller's tokens", response: { 200: TokenList, ...standardErrors } },
    handler: async (request, reply) => {
      const items = await tokens.listOwn(requireOwnAccountAction(request.principal, 'list_tokens').account.id);
      return sendEnvelope(reply, { items }, listMessage(items.length));
    },
  });

  app.get('/api/core/token/browse', {
    config: { roles: ['sys_administrator'] },
    schema: { tags, security, summary: 'Tokens of all users', response: { 200: TokenList, ...standardErrors } },
    handler: async (_request, reply) => {
      const items = await tokens.listAll();
      return sendEnvelope(reply, { items }, listMessage(items.length));
    },
  });

  app.get('/api/core/token/user/:username', {
    config: { roles: ['sys_administrator'] },
    schema: {
      tags,
      security,
      summary: "A user's tokens",
      params: Type.Object({ username: Username }),
      response: { 200: TokenList, ...standardErrors },
    },
    handler: async (request, reply) => {
      const items = await tokens.listOf(request.params.username);
      return sendEnvelope(reply, { items }, listMessage(items.length));
    },
  });

  app.post('/api/core/token/create/:token_name', {
    config: { roles: ['sys_tokens'], stepUp: true },
    schema: {
      tags,
      security,
      summary: 'Create a token for the caller (the value is shown only in this answer)',
      params: Type.Object({ token_name: TokenName }),
      querystring: LimitsQuery,
      body: LimitsBody,
      response: { 201: TokenItem, 409: ErrorEnvelope, ...standardErrors },
    },
    handler: async (request, reply) => {
      const principal = requireOwnAccountAction(request.principal, 'create_token');
      const caller = principal.account.username;
      const item = await tokens.create(
        caller,
        request.params.token_name,
        caller,
        actorOf(request),
        limitsOf(request, principal),
      );
      return sendEnvelope(reply, { item }, 'token created', 201);
    },
  });

  app.post('/api/core/token/create/:token_name/:username', {
    config: { roles: ['sys_administrator'], stepUp: true },
    schema: {
      tags,
      security,
      summary: 'Create a token for a user (the value is shown only in this answer)',
      params: Type.Object({ token_name: TokenName, username: Username }),
      querystring: LimitsQuery,
      body: LimitsBody,
      response: { 201: TokenItem, 409: ErrorEnvelope, ...standardErrors },
    },
    handler: async (request, reply) => {
      const principal = callerOf(request);
      // An administrator's scoped credential limits what it can hand out only for its own tokens.
      const limits = limitsOf(request, principal);
      if (!sameUsername(principal.account.username, request.params.username)) delete limits.within;
      const item = await tokens.create(
        request.params.username,
        request.params.token_name,
        principal.account.username,
        actorOf(request),
        limits,
      );
      return sendEnvelope(reply, { item }, 'token created', 201);
    },
  });

  app.post('/api/core/token/delete/:token_name/:username', {
    schema: {
      tags,
      security,
      summary: 'Delete a token (its owner or sys_administrator)',
      params: Type.Object({ token_name: TokenName, username: Username }),
      response: { 200: TokenItem, ...standardErrors },
    },
    handler: async (request, reply) => {
      requireAccountAction(request.principal, 'delete_token', request.params.username);
      const item = await tokens.delete(request.params.username, request.params.token_name, actorOf(request));
      return sendEnvelope(reply, { item }, 'token deleted');
    },
  });
};
