// Lock/unlock/cancel/copy, and the administration an instance needs besides: create accounts,
// passwords, roles, reactivation (docs/api.md, Accounts).
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { authSecurity, EnvelopeOf, ErrorEnvelope, sendEnvelope, standardErrors } from '../http/envelope.js';
import { requireOwnAccountAction } from '../auth/own-account-actions.js';
import { actorOf } from '../http/audit-actor.js';
import type { AuditActor } from '../audit/audit-actions.js';
import { ROLE_NAME_PATTERN } from '../accounts/roles-repository.js';
import type { AccountAdminService } from '../accounts/account-admin-service.js';
import type { AccountListItem } from '../accounts/account-shapes.js';
import { Username } from '../accounts/account-shapes.js';
import { AccountItemAnswer } from './account-schemas.js';
import { TEAM_SHORT_PATTERN } from '../teams/team-service.js';
import { ROLE_KINDS } from '../accounts/valid-roles.js';

const tags = ['accounts'];
const security = authSecurity;
const admins = { roles: ['sys_administrator'] as const };
const itemResponse = { 200: AccountItemAnswer, 409: ErrorEnvelope, ...standardErrors };
const Role = Type.String({ pattern: ROLE_NAME_PATTERN });
// The length rule is Settings:PasswordMinLength's, checked with the other password rules (a 400 naming it).
const Password = Type.String({
  minLength: 1,
  maxLength: 4096,
  description: 'at least Settings:PasswordMinLength characters; not common, not guessable, not containing the username',
});
const RoleItem = Type.Object({
  name: Type.String(),
  kind: Type.Union(
    ROLE_KINDS.map((k) => Type.Literal(k)),
    {
      description:
        "system: checked by the platform; app: app_<name> of an installed app; acl: named by an app's SRS command",
    },
  ),
  description: Type.String({ description: 'one line: what holding it allows' }),
});

export const accountAdminRoutes: FastifyPluginAsyncTypebox<{ accounts: AccountAdminService }> = async (
  app,
  { accounts: admin },
) => {
  const userAction = (
    path: string,
    summary: string,
    message: string,
    act: (by: AuditActor, username: string) => Promise<AccountListItem>,
  ) =>
    app.post(`/api/core/account/${path}/:username`, {
      config: admins,
      schema: { tags, security, summary, params: Type.Object({ username: Username }), response: itemResponse },
      handler: async (request, reply) =>
        sendEnvelope(reply, { item: await act(actorOf(request), request.params.username) }, message),
    });

  userAction(
    'lock',
    'Lock an account (ends its sessions; no credential works until unlock)',
    'account locked',
    (by, u) => admin.lock(by, u),
  );
  userAction('unlock', 'Unlock an account (also clears failed-password lockout)', 'account unlocked', (by, u) =>
    admin.unlock(by, u),
  );
  userAction(
    'cancel',
    'Cancel (deactivate) an account; runs the user_cancel hook in the same transaction',
    'account cancelled',
    (by, u) => admin.cancel(by, u),
  );
  userAction('reactivate', 'Reactivate a cancelled account', 'account reactivated', (by, u) => admin.reactivate(by, u));

  app.post('/api/core/account/copy/:source_username/:target_username', {
    config: admins,
    schema: {
      tags,
      security,
      summary: "Add the source user's roles and teams to the target user",
      params: Type.Object({ source_username: Username, target_username: Username }),
      response: itemResponse,
    },
    handler: async (request, reply) =>
      sendEnvelope(
        reply,
        { item: await admin.copy(actorOf(request), request.params.source_username, request.params.target_username) },
        'account copied',
      ),
  });

  app.post('/api/core/account/create', {
    config: admins,
    schema: {
      tags,
      security,
      summary: 'Create an account',
      body: Type.Object(
        {
          username: Username,
          password: Password,
          roles: Type.Optional(Type.Array(Role, { maxItems: 100 })),
          teams: Type.Optional(
            Type.Array(Type.String({ pattern: TEAM_SHORT_PATTERN }), {
              maxItems: 100,
              description: 'team shorts; the first is the primary team (default: COM)',
            }),
          ),
          user_first_name: Type.Optional(Type.String({ maxLength: 256 })),
          user_last_name: Type.Optional(Type.String({ maxLength: 256 })),
        },
        { additionalProperties: false },
      ),
      response: { 201: AccountItemAnswer, 409: ErrorEnvelope, ...standardErrors },
    },
    handler: async (request, reply) => {
      const b = request.body;
      const item = await admin.create(actorOf(request), {
        username: b.username,
        password: b.password,
        ...(b.roles ? { roles: b.roles } : {}),
        ...(b.teams ? { teams: b.teams } : {}),
        ...(b.user_first_name !== undefined ? { firstName: b.user_first_name } : {}),
        ...(b.user_last_name !== undefined ? { lastName: b.user_last_name } : {}),
      });
      return sendEnvelope(reply, { item }, 'account created', 201);
    },
  });

  app.post('/api/core/account/password', {
    // The way out of a one-time password, so open while one is pending.
    config: { passwordChangeExempt: true, stepUp: true },
    schema: {
      tags,
      security,
      summary: 'Change your own password (ends every session; log in again)',
      body: Type.Object(
        { current_password: Type.String({ minLength: 1, maxLength: 4096 }), new_password: Password },
        { additionalProperties: false },
      ),
      response: itemResponse,
    },
    handler: async (request, reply) => {
      // Refused before the password is checked: a scoped credential cannot even test one.
      const caller = requireOwnAccountAction(request.principal, 'change_password');
      const item = await admin.changeOwnPassword(
        actorOf(request),
        caller.account.username,
        request.body.current_password,
        request.body.new_password,
      );
      return sendEnvelope(reply, { item }, 'password changed');
    },
  });

  app.post('/api/core/account/password/:username', {
    config: admins,
    schema: {
      tags,
      security,
      summary: "Set a user's password (ends every session of that user)",
      params: Type.Object({ username: Username }),
      body: Type.Object({ password: Password }, { additionalProperties: false }),
      response: itemResponse,
    },
    handler: async (request, reply) =>
      sendEnvelope(
        reply,
        { item: await admin.resetPassword(actorOf(request), request.params.username, request.body.password) },
        'password set',
      ),
  });

  app.get('/api/core/roles', {
    config: admins,
    schema: {
      tags,
      security,
      summary: 'The roles that may be granted (sys_administrator)',
      description:
        'What role grant and account create accept: the system roles, app_<name> of every installed app and the ' +
        "roles the apps' SRS definitions name in their acls. Revoking is not limited to these.",
      response: { 200: EnvelopeOf(Type.Object({ items: Type.Array(RoleItem) })), ...standardErrors },
    },
    handler: async (_request, reply) => {
      const items = await admin.grantableRoles();
      return sendEnvelope(reply, { items }, `${items.length} roles`);
    },
  });

  for (const action of ['grant', 'revoke'] as const) {
    app.post(`/api/core/account/role/${action}/:username/:role`, {
      config: admins,
      schema: {
        tags,
        security,
        summary: `${action === 'grant' ? 'Grant' : 'Revoke'} a role`,
        params: Type.Object({ username: Username, role: Role }),
        response: itemResponse,
      },
      handler: async (request, reply) => {
        const { username, role } = request.params;
        const item =
          action === 'grant'
            ? await admin.grant(actorOf(request), username, role)
            : await admin.revoke(actorOf(request), username, role);
        return sendEnvelope(reply, { item }, `role ${action === 'grant' ? 'granted' : 'revoked'}`);
      },
    });
  }
};
