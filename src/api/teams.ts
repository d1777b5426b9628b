// Team administration (beyond the spec; sys_administrator).
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { authSecurity, EnvelopeOf, ErrorEnvelope, sendEnvelope, standardErrors } from '../http/envelope.js';
import { Username } from '../accounts/account-shapes.js';
import { optionalBody } from '../http/validation.js';
import { TEAM_SHORT_PATTERN, TEAM_TYPES, type TeamService } from '../teams/team-service.js';
import { actorOf } from '../http/audit-actor.js';

const tags = ['teams'];
const security = authSecurity;
const config = { roles: ['sys_administrator'] as const };
const TeamItem = Type.Object({
  team_id: Type.String({ format: 'uuid' }),
  team_short: Type.String(),
  team_name: Type.String(),
  team_type: Type.String(),
  members: Type.Integer(),
});
const Short = Type.String({ pattern: TEAM_SHORT_PATTERN });
const MemberItem = Type.Object({
  username: Type.String(),
  teamuser_lvl: Type.Union([Type.String(), Type.Null()], { description: "the member's level in the team" }),
  primary: Type.Boolean({ description: "whether this is the member's primary team" }),
  user_first_name: Type.String(),
  user_last_name: Type.String(),
});
const MemberParams = Type.Object({ team_short: Short, username: Username });

export const teamRoutes: FastifyPluginAsyncTypebox<{ teams: TeamService }> = async (app, { teams }) => {
  app.get('/api/core/team/browse', {
    config,
    schema: {
      tags,
      security,
      summary: 'All teams',
      response: { 200: EnvelopeOf(Type.Object({ items: Type.Array(TeamItem) })), ...standardErrors },
    },
    handler: async (_request, reply) => {
      const items = await teams.list();
      return sendEnvelope(reply, { items }, `${items.length} teams`);
    },
  });

  app.get('/api/core/team/members/:team_short', {
    config,
    schema: {
      tags,
      security,
      summary: 'A team and its members, by username (sys_administrator)',
      params: Type.Object({ team_short: Short }),
      response: {
        200: EnvelopeOf(Type.Object({ team: TeamItem, items: Type.Array(MemberItem) })),
        ...standardErrors,
      },
    },
    handler: async (request, reply) => {
      const data = await teams.members(request.params.team_short);
      return sendEnvelope(reply, data, `${data.items.length} members`);
    },
  });

  app.post('/api/core/team/create', {
    config,
    schema: {
      tags,
      security,
      summary: 'Create a team',
      body: Type.Object(
        {
          team_short: Short,
          team_name: Type.String({ minLength: 1, maxLength: 256 }),
          team_type: Type.Optional(Type.Union(TEAM_TYPES.map((t) => Type.Literal(t)))),
        },
        { additionalProperties: false },
      ),
      response: { 201: EnvelopeOf(Type.Object({ item: TeamItem })), 409: ErrorEnvelope, ...standardErrors },
    },
    handler: async (request, reply) => {
      const { team_short, team_name, team_type } = request.body;
      return sendEnvelope(
        reply,
        { item: await teams.create(actorOf(request), team_short, team_name, team_type ?? 'internal') },
        'team created',
        201,
      );
    },
  });

  app.post('/api/core/team/member/add/:team_short/:username', {
    config,
    schema: {
      tags,
      security,
      summary: 'Add a user to a team (optionally with a level)',
      params: MemberParams,
      body: optionalBody(
        Type.Object(
          { teamuser_lvl: Type.Optional(Type.Union([Type.String({ maxLength: 64 }), Type.Null()])) },
          { additionalProperties: false },
        ),
      ),
      response: { 200: EnvelopeOf(Type.Object({ item: TeamItem })), ...standardErrors },
    },
    handler: async (request, reply) =>
      sendEnvelope(
        reply,
        {
          item: await teams.addMember(
            actorOf(request),
            request.params.team_short,
            request.params.username,
            request.body?.teamuser_lvl ?? null,
          ),
        },
        'member added',
      ),
  });

  app.post('/api/core/team/member/remove/:team_short/:username', {
    config,
    schema: {
      tags,
      security,
      summary: 'Remove a user from a team',
      params: MemberParams,
      response: { 200: EnvelopeOf(Type.Object({ item: TeamItem })), ...standardErrors },
    },
    handler: async (request, reply) =>
      sendEnvelope(
        reply,
        { item: await teams.removeMember(actorOf(request), request.params.team_short, request.params.username) },
        'member removed',
      ),
  });
};
