// GET /api/core/audit: the audit trail for administrators, newest first, filtered and paged by
// a cursor (a page stays correct while new entries arrive).
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { authSecurity, EnvelopeOf, sendEnvelope, standardErrors } from '../http/envelope.js';
import { AUDIT_ACTIONS } from '../audit/audit-actions.js';
import type { AuditTrail } from '../audit/audit-trail.js';
import { Username } from '../accounts/account-shapes.js';

export const AUDIT_PAGE_DEFAULT = 50;
export const AUDIT_PAGE_MAX = 500;

const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);

const AuditEntry = Type.Object({
  id: Type.String(),
  at: Type.String({ description: 'ISO 8601 UTC with six fraction digits' }),
  action: Type.String({ description: `one of: ${AUDIT_ACTIONS.join(', ')}` }),
  actor: Nullable(Type.String({ description: 'who acted; a failed login: the username as typed; null: the CLI' })),
  subject: Nullable(Type.String({ description: 'the account, team or token owner acted upon' })),
  client: Nullable(Type.String({ description: "the client's address, or `cli`" })),
  via: Nullable(Type.String({ description: 'password, api_token, jwt, cli, startup' })),
  request_id: Nullable(Type.String({ description: 'the X-Request-Id of the request, as in the log' })),
  data: Type.Record(Type.String(), Type.Unknown(), { description: 'the details of the action' }),
});

const AuditQuery = Type.Object({
  user: Type.Optional(Username),
  action: Type.Optional(
    Type.String({
      pattern: '^[a-z_]{1,64}(,[a-z_]{1,64}){0,31}$',
      description: 'one action or a comma-separated list',
    }),
  ),
  from: Type.Optional(Type.String({ maxLength: 40, description: 'ISO 8601, inclusive' })),
  to: Type.Optional(Type.String({ maxLength: 40, description: 'ISO 8601, exclusive' })),
  cursor: Type.Optional(Type.String({ maxLength: 200, description: 'the `next` of the previous page' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: AUDIT_PAGE_MAX, default: AUDIT_PAGE_DEFAULT })),
});

const AuditAnswer = EnvelopeOf(
  Type.Object({ entries: Type.Array(AuditEntry), next: Type.Union([Type.String(), Type.Null()]) }),
);

export const auditRoutes: FastifyPluginAsyncTypebox<{ audit: AuditTrail }> = async (app, { audit }) => {
  app.get('/api/core/audit', {
    config: { roles: ['sys_administrator'] },
    schema: {
      tags: ['accounts'],
      security: authSecurity,
      summary: 'The audit trail, newest first (sys_administrator)',
      description:
        'Security-relevant actions: logins and failed logins, logouts, lockouts, account and role changes, ' +
        'team membership, tokens, passwords, profile updates by administrators, context changes, SRS renders. ' +
        'Pass `next` as `cursor` for the following page.',
      querystring: AuditQuery,
      response: { 200: AuditAnswer, ...standardErrors },
    },
    handler: async (request, reply) => {
      const q = request.query;
      const page = await audit.list({
        ...(q.user !== undefined ? { user: q.user } : {}),
        ...(q.action !== undefined ? { actions: q.action.split(',') } : {}),
        ...(q.from !== undefined ? { from: q.from } : {}),
        ...(q.to !== undefined ? { to: q.to } : {}),
        ...(q.cursor !== undefined ? { cursor: q.cursor } : {}),
        limit: q.limit ?? AUDIT_PAGE_DEFAULT,
      });
      return sendEnvelope(reply, page, `${page.entries.length} entries`);
    },
  });
};
