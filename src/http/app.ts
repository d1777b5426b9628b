// Builds the Fastify application from the instance services. Routes live with their domains;
// this file only assembles them with the cross-cutting pieces.
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import cookie from '@fastify/cookie';
import type { Services } from '../services.js';
import { requestIdFor } from './request-id.js';
import { validatorCompiler } from './validation.js';
import { clientErrorHandler, frameworkErrorHandler, installErrorHandling } from './error-handler.js';
import { installAuthentication } from './auth-hook.js';
import { registerOpenApi } from './openapi.js';
import { opsRoutes } from './ops-routes.js';
import { redactUrl } from './logger.js';
import { sessionRoutes } from '../auth/routes.js';
import { tokenRoutes } from '../tokens/routes.js';
import { pingRoutes } from '../system/ping-routes.js';
import { systemInfoRoutes } from '../system/info-routes.js';
import { profileRoutes } from '../accounts/profile-routes.js';
import { accountAdminRoutes } from '../accounts/admin-routes.js';
import { teamRoutes } from '../teams/routes.js';

export async function buildApp(services: Services): Promise<FastifyInstance> {
  const { settings } = services.config;
  const app = Fastify({
    loggerInstance: services.logger as FastifyBaseLogger,
    // Per-request access lines are ours to write (off by default, Settings:AccessLog).
    logController: new LogController({ disableRequestLogging: true, requestIdLogLabel: 'requestId' }),
    genReqId: requestIdFor,
    bodyLimit: settings.bodyLimitBytes,
    trustProxy: settings.trustProxy,
    forceCloseConnections: 'idle',
    clientErrorHandler,
    frameworkErrors: frameworkErrorHandler,
    // An HTTP/1.1 request without Host is refused by installErrorHandling, in the envelope.
    http: { requireHostHeader: false },
    routerOptions: { maxParamLength: 512 },
  });
  app.setValidatorCompiler(validatorCompiler);
  installErrorHandling(app);

  app.addHook('onSend', async (request, reply) => {
    reply.header('X-Request-Id', request.id);
  });
  app.addHook('onResponse', async (request, reply) => {
    const ms = reply.elapsedTime;
    const line = { method: request.method, url: redactUrl(request.url), statusCode: reply.statusCode, responseTimeMs: Math.round(ms * 10) / 10 };
    if (ms >= settings.slowRequestMs) request.log.warn(line, 'slow request');
    else if (settings.accessLog) request.log.info(line, 'request completed');
  });

  await app.register(cookie);
  installAuthentication(app, services.auth, settings.allowedOrigins);
  await registerOpenApi(app);

  opsRoutes(app, services.database);
  sessionRoutes(app, services.login);
  tokenRoutes(app, services.tokens);
  profileRoutes(app, services.profiles, services.accounts);
  accountAdminRoutes(app, services.accounts);
  teamRoutes(app, services.teams);
  pingRoutes(app);
  systemInfoRoutes(app, services.profiles, services.config, services.database.dialect);
  return app;
}
