// Profile, profile-update, the account directory, the application context.
import { Type } from 'typebox';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { authSecurity, sendEnvelope, standardErrors } from '../http/envelope.js';
import { actorOf } from '../http/audit-actor.js';
import { callerOf } from '../http/auth-hook.js';
import { requireAccountAction, requireOwnAccountAction } from '../auth/own-account-actions.js';
import { APP_NAME_PATTERN } from '../apps/apps-directory.js';
import type { AccountAdminService } from '../accounts/account-admin-service.js';
import { parseScope, type ProfileService } from '../accounts/profile-service.js';
import { ProfileUpdateBody, Username } from '../accounts/account-shapes.js';
import { AccountItemAnswer, DirectoryAnswer, ProfileAnswer, ProfileUserAnswer } from './account-schemas.js';

const tags = ['accounts'];
const security = authSecurity;
const origin = (r: FastifyRequest) => `${r.protocol}://${r.host}`;

export const profileRoutes: FastifyPluginAsyncTypebox<{
  profiles: ProfileService;
  accounts: AccountAdminService;
}> = async (app, { profiles, accounts: admin }) => {
  const scopeQuery = Type.Object({
    pscope: Type.Optional(
      Type.String({ maxLength: 64, description: '`user` → only data.user; teams,roles,apps (or omitted) → all' }),
    ),
  });
  const profileResponse = { 200: ProfileAnswer, ...standardErrors };

  app.get('/api/core/account/profile', {
    schema: { tags, security, summary: "The caller's profile", querystring: scopeQuery, response: profileResponse },
    handler: async (request, reply) => {
      const data = await profiles.profile(
        requireOwnAccountAction(request.principal, 'read_profile').account.username,
        parseScope(request.query.pscope),
        origin(request),
      );
      return sendEnvelope(reply, data, 'profile');
    },
  });

  app.get('/api/core/account/profile/:username', {
    schema: {
      tags,
      security,
      summary: "A user's profile (sys_administrator, or the user)",
      params: Type.Object({ username: Username }),
      querystring: scopeQuery,
      response: profileResponse,
    },
    handler: async (request, reply) => {
      requireAccountAction(request.principal, 'read_profile', request.params.username);
      const data = await profiles.profile(request.params.username, parseScope(request.query.pscope), origin(request));
      return sendEnvelope(reply, data, 'profile');
    },
  });

  app.post('/api/core/account/profile-update', {
    schema: {
      tags,
      security,
      summary: 'Update profile fields (administrators: of another user, named by `username`)',
      body: ProfileUpdateBody,
      response: { 200: ProfileUserAnswer, ...standardErrors },
    },
    handler: async (request, reply) => {
      const { username, ...fields } = request.body;
      const target = username ?? callerOf(request).account.username;
      requireAccountAction(request.principal, 'update_profile', target);
      const user = await profiles.update(actorOf(request), target, fields);
      return sendEnvelope(reply, { user }, 'profile updated');
    },
  });

  app.get('/api/core/account/browse', {
    config: { roles: ['sys_administrator'] },
    schema: { tags, security, summary: 'The account directory', response: { 200: DirectoryAnswer, ...standardErrors } },
    handler: async (_request, reply) => {
      const data = await profiles.directory();
      return sendEnvelope(reply, data, `${data.items.length} accounts`);
    },
  });

  const AppName = Type.String({ pattern: APP_NAME_PATTERN });
  const contextResponse = { 200: AccountItemAnswer, ...standardErrors };
  app.post('/api/core/account/context/:app_name', {
    schema: {
      tags,
      security,
      summary: "Set the caller's application context",
      params: Type.Object({ app_name: AppName }),
      response: contextResponse,
    },
    handler: async (request, reply) => {
      const { app_name } = request.params;
      const caller = requireOwnAccountAction(request.principal, 'set_context', app_name);
      const item = await admin.setContext(actorOf(request), caller.account.username, app_name);
      return sendEnvelope(reply, { item }, 'context changed');
    },
  });
  app.post('/api/core/account/context/:app_name/:username', {
    schema: {
      tags,
      security,
      summary: "Set a user's application context (sys_administrator, or the user)",
      params: Type.Object({ app_name: AppName, username: Username }),
      response: contextResponse,
    },
    handler: async (request, reply) => {
      requireAccountAction(request.principal, 'set_context', request.params.username, request.params.app_name);
      const item = await admin.setContext(actorOf(request), request.params.username, request.params.app_name);
      return sendEnvelope(reply, { item }, 'context changed');
    },
  });
};
