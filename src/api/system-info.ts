// GET /api/core/system: obsolete, kept for old clients. A bare object, never an
// envelope; it points to its successor, the profile endpoint, in the Deprecation/Link headers.
// GET /api/core/system/instance: what the admin console's System screen shows, in one
// call and in the envelope: version, database kind, apps, start time, pool sizes. Never a secret,
// a path or the database URL.
import { Type, type Static } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { authSecurity, EnvelopeOf, sendEnvelope, standardErrors } from '../http/envelope.js';
import { VERSION } from '../lib/version.js';
import { callerOf } from '../http/auth-hook.js';
import type { ProfileService } from '../accounts/profile-service.js';
import type { Config } from '../config/config.js';
import type { DialectName } from '../db/connect.js';
import { listApps } from '../apps/apps-directory.js';

/** RFC 9745: the date from which the endpoint counts as deprecated (2025-01-01). */
const DEPRECATED_SINCE = '@1735689600';

const InfoSchema = Type.Object(
  {
    'kv.v.api.token': Type.String({ description: 'always empty: credentials are never echoed' }),
    'kv.v.api.url': Type.String(),
    'kv.v.api.version': Type.String(),
    'kv.v.owner.language': Type.String(),
    'kv.v.owner.name': Type.String(),
    'kv.v.user.app_name': Type.String(),
    'kv.v.user.currency': Type.String(),
    'kv.v.user.teamid': Type.String({ format: 'uuid' }),
    'kv.v.user.userid': Type.String({ format: 'uuid' }),
    'kv.v.user.username': Type.String(),
    'kv.v.user.apps': Type.Array(Type.String()),
    'kv.v.instance.database': Type.Optional(Type.String()),
    'kv.v.instance.apps': Type.Optional(Type.Array(Type.String())),
    'kv.v.instance.jwt_expire_hours': Type.Optional(Type.Number()),
  },
  { description: 'bare object (no envelope)' },
);

const Pool = Type.Object({
  workers: Type.Integer({ description: 'worker threads' }),
  queue_limit: Type.Integer({ description: 'jobs that may wait for a worker; beyond, 503' }),
});

const InstanceSchema = Type.Object({
  version: Type.String(),
  database: Type.Union([Type.Literal('sqlite'), Type.Literal('postgresql')]),
  apps: Type.Array(Type.String(), { description: 'the installed apps (folders of APPS_DIR)' }),
  started_at: Type.String({ description: 'ISO 8601 UTC: when this instance started' }),
  uptime_seconds: Type.Integer(),
  node_version: Type.String(),
  owner_name: Type.String({ description: 'Settings:OwnerName' }),
  jwt_expire_hours: Type.Number({ description: 'Settings:JwtExpireHours' }),
  render_pool: Pool,
  preview_pool: Pool,
});

export const systemInfoRoutes: FastifyPluginAsyncTypebox<{
  profiles: ProfileService;
  config: Config;
  dialect: DialectName;
}> = async (app, { profiles, config, dialect }) => {
  const startedAt = new Date();
  app.get('/api/core/system/instance', {
    config: { roles: ['sys_administrator'] },
    schema: {
      tags: ['system'],
      security: authSecurity,
      summary: 'This instance: version, database kind, apps, start time, pool sizes (sys_administrator)',
      response: { 200: EnvelopeOf(InstanceSchema), ...standardErrors },
    },
    handler: async (_request, reply) => {
      const { settings } = config;
      const data: Static<typeof InstanceSchema> = {
        version: VERSION,
        database: dialect,
        apps: listApps(config.appsDir),
        started_at: startedAt.toISOString(),
        uptime_seconds: Math.floor((Date.now() - startedAt.getTime()) / 1000),
        node_version: process.version,
        owner_name: settings.ownerName,
        jwt_expire_hours: settings.jwtExpireHours,
        render_pool: { workers: settings.renderWorkers, queue_limit: settings.renderQueueLimit },
        preview_pool: { workers: settings.previewWorkers, queue_limit: settings.previewQueueLimit },
      };
      return sendEnvelope(reply, data, 'instance');
    },
  });

  app.get('/api/core/system', {
    schema: {
      tags: ['system'],
      security: authSecurity,
      deprecated: true,
      summary: 'Basic system information (obsolete: use GET /api/core/account/profile)',
      querystring: Type.Object({ setup: Type.Optional(Type.Boolean({ default: false })) }),
      response: { 200: InfoSchema, ...standardErrors },
    },
    handler: async (request, reply) => {
      const caller = callerOf(request);
      const profile = await profiles.profile(caller.account.username, 'all', `${request.protocol}://${request.host}`);
      const info: Static<typeof InfoSchema> = {
        'kv.v.api.token': '',
        'kv.v.api.url': profile.instance?.['kv.v.api.url'] ?? '',
        'kv.v.api.version': profile.instance?.['kv.v.api.version'] ?? '',
        'kv.v.owner.language': config.settings.ownerLanguage,
        'kv.v.owner.name': config.settings.ownerName,
        'kv.v.user.app_name': profile.user.user_app_name,
        'kv.v.user.currency': profile.user.user_currency,
        'kv.v.user.teamid': profile.user.team_id,
        'kv.v.user.userid': caller.account.id,
        'kv.v.user.username': profile.user.username,
        'kv.v.user.apps': profile.apps ?? [],
      };
      if (request.query.setup) {
        info['kv.v.instance.database'] = dialect;
        info['kv.v.instance.apps'] = listApps(config.appsDir);
        info['kv.v.instance.jwt_expire_hours'] = config.settings.jwtExpireHours;
      }
      reply.header('Deprecation', DEPRECATED_SINCE);
      reply.header('Link', '</api/core/account/profile>; rel="successor-version"');
      return info;
    },
  });
};
