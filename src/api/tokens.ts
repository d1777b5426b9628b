// Spec §4.1. Handlers only check shapes and call the token service.
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { EnvelopeOf, sendEnvelope, standardErrors, ErrorEnvelope, authSecurity } from '../http/envelope.js';
import { callerOf } from '../http/auth-hook.js';
import { requireSelfOrAdmin } from '../auth/guard.js';
import { USERNAME_PATTERN } from '../identity/usernames.js';
import { TOKEN_NAME_PATTERN, TokenRecordSchema, type TokenService } from '../tokens/token-service.js';
import { actorOf } from '../http/audit-actor.js';

const TokenList = EnvelopeOf(Type.Object({ items: Type.Array(TokenRecordSchema) }));
const TokenItem = EnvelopeOf(Type.Object({ item: TokenRecordSchema }));
const TokenName = Type.String({ pattern: TOKEN_NAME_PATTERN, description: '1–64 of A-Z a-z 0-9 . _ -' });
const Username = Type.String({ pattern: USERNAME_PATTERN });
const security = authSecurity;
const tags = ['tokens'];

const listMessage = (n: number) => `${n} tokens`;

export const tokenRoutes: FastifyPluginAsyncTypebox<{ tokens: TokenService }> = async (app, { tokens }) => {
  app.get('/api/core/token/user', {
    schema: { tags, security, summary: "The caller's tokens", response: { 200: TokenList, ...standardErrors } },
    handler: async (request, reply) => {
      const items = await tokens.listOwn(callerOf(request).account.id);
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
    config: { roles: ['sys_tokens'] },
    schema: {
      tags,
      security,
      summary: 'Create a token for the caller (the value is shown only in this answer)',
      params: Type.Object({ token_name: TokenName }),
      response: { 201: TokenItem, 409: ErrorEnvelope, ...standardErrors },
    },
    handler: async (request, reply) => {
      const caller = callerOf(request).account.username;
      const item = await tokens.create(caller, request.params.token_name, caller, actorOf(request));
      return sendEnvelope(reply, { item }, 'token created', 201);
    },
  });

  app.post('/api/core/token/create/:token_name/:username', {
    config: { roles: ['sys_administrator'] },
    schema: {
      tags,
      security,
      summary: 'Create a token for a user (the value is shown only in this answer)',
      params: Type.Object({ token_name: TokenName, username: Username }),
      response: { 201: TokenItem, 409: ErrorEnvelope, ...standardErrors },
    },
    handler: async (request, reply) => {
      const item = await tokens.create(
        request.params.username,
        request.params.token_name,
        callerOf(request).account.username,
        actorOf(request),
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
      requireSelfOrAdmin(request.principal, request.params.username);
      const item = await tokens.delete(request.params.username, request.params.token_name, actorOf(request));
      return sendEnvelope(reply, { item }, 'token deleted');
    },
  });
};
