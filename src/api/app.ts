// The HTTP API of one instance: the Fastify assembly (src/http/) with every route group of this
// folder registered on it, each a plugin given the services it uses.
import type { FastifyInstance } from 'fastify';
import type { Services } from '../services.js';
import { createHttpApp } from '../http/fastify-app.js';
import { opsRoutes } from './ops.js';
import { sessionRoutes } from './sessions.js';
import { tokenRoutes } from './tokens.js';
import { profileRoutes } from './profile.js';
import { accountAdminRoutes } from './accounts.js';
import { mfaRoutes } from './mfa.js';
import { accountListRoutes } from './account-list.js';
import { teamRoutes } from './teams.js';
import { pingRoutes } from './ping.js';
import { previewRoutes } from './preview.js';
import { uuidRoutes } from './uuid.js';
import { systemInfoRoutes } from './system-info.js';
import { srsRoutes } from './srs.js';
import { fontRoutes } from './fonts.js';
import { auditRoutes } from './audit.js';
import { metricsRoutes } from './metrics.js';
import { homeRoutes } from './home.js';
import { faviconRoutes } from './favicon.js';
import { consoleRoutes } from './console.js';

export async function buildApp(services: Services): Promise<FastifyInstance> {
  const app = await createHttpApp({
    settings: services.config.settings,
    logger: services.logger,
    auth: services.auth,
    onDatabaseFault: (fault) => services.database.storage.noteFault(fault),
    metrics: services.metrics,
  });
  // In this order: it is the order of the OpenAPI document's paths.
  await app.register(homeRoutes);
  await app.register(faviconRoutes);
  await app.register(consoleRoutes);
  await app.register(opsRoutes, { database: services.database });
  await app.register(sessionRoutes, {
    login: services.login,
    mfaRequiredRoles: services.config.settings.mfaRequiredRoles,
  });
  await app.register(tokenRoutes, { tokens: services.tokens });
  await app.register(profileRoutes, { profiles: services.profiles, accounts: services.accounts });
  await app.register(accountListRoutes, { profiles: services.profiles });
  await app.register(accountAdminRoutes, { accounts: services.accounts });
  await app.register(mfaRoutes, { mfa: services.mfa });
  await app.register(teamRoutes, { teams: services.teams });
  await app.register(auditRoutes, { audit: services.audit });
  await app.register(pingRoutes);
  await app.register(previewRoutes, { previews: services.previews });
  await app.register(uuidRoutes);
  await app.register(systemInfoRoutes, {
    profiles: services.profiles,
    config: services.config,
    dialect: services.database.dialect,
  });
  await app.register(srsRoutes, { srs: services.srs });
  await app.register(fontRoutes);
  // Only with its token: without one there is no /metrics on this port (404), see docs/operations.md, Metrics.
  const metricsToken = services.config.settings.metricsToken;
  if (metricsToken !== null) await app.register(metricsRoutes, { metrics: services.metrics, token: metricsToken });
  return app;
}
