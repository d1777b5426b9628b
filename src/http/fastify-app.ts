// The Fastify instance with its cross-cutting pieces: logging, request ids, validation, error
// mapping, body parsers, authentication and the OpenAPI document. The routes are not here:
// src/api/ registers them on this instance.
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyRequest } from 'fastify';
import cookie from '@fastify/cookie';
import type { Logger } from 'pino';
import type { Settings } from '../config/config.js';
import type { Authenticator } from '../auth/authenticator.js';
import type { DatabaseFault } from '../db/database-errors.js';
import { requestIdFor } from './request-id.js';
import { validatorCompiler } from './validation.js';
import { clientErrorHandler, frameworkErrorHandler, installErrorHandling } from './error-handler.js';
import { installAuthentication } from './auth-hook.js';
import { registerOpenApi } from './openapi.js';
import { redactRequestUrl } from './url-redaction.js';
import { parseForm } from './echo-body.js';
import { installJsonParser } from './json-body.js';
import { installNulGuard } from './nul-guard.js';
import { lazyChildLoggerFactory } from './lazy-logger.js';
import { holdTickObjectShape } from '../lib/tick-object-shape.js';
import { UNMATCHED_ROUTE, type Metrics } from '../metrics/metrics.js';

export interface HttpAppOptions {
  settings: Settings;
  logger: Logger;
  auth: Authenticator;
  /** A database failure answered to a client (the storage health learns of a full disk). */
  onDatabaseFault: (fault: DatabaseFault) => void;
  /** Counts every answered request by route pattern, and the authentication outcomes. */
  metrics: Metrics;
}

export async function createHttpApp({
  settings,
  logger,
  auth,
  onDatabaseFault,
  metrics,
}: HttpAppOptions): Promise<FastifyInstance> {
  // The CLI does this first thing; here for programs that embed the app (tests, the bench).
  holdTickObjectShape();
  // The access line (Settings:AccessLog) or slow line (Settings:SlowRequestMs) of a request.
  const logRequestEnd = (request: FastifyRequest, statusCode: number, ms: number): void => {
    const slow = ms >= settings.slowRequestMs;
    if (slow || settings.accessLog) {
      const line = {
        method: request.method,
        url: redactRequestUrl(request.url, request.query),
        statusCode,
        responseTimeMs: Math.round(ms * 10) / 10,
      };
      if (slow) request.log.warn(line, 'slow request');
      else request.log.info(line, 'request completed');
    }
  };
  const app = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    // Per-request access lines are ours to write (off by default, Settings:AccessLog).
    logController: new LogController({ disableRequestLogging: true, requestIdLogLabel: 'requestId' }),
    genReqId: requestIdFor,
    bodyLimit: settings.bodyLimitBytes,
    trustProxy: settings.trustProxy,
    forceCloseConnections: 'idle',
    clientErrorHandler,
    childLoggerFactory: lazyChildLoggerFactory,
    // Requests the router refuses (a bad URL) run no hooks, so their line is written here.
    frameworkErrors: (err, request, reply) => {
      const started = performance.now();
      reply.raw.once('close', () => logRequestEnd(request, reply.statusCode, performance.now() - started));
      frameworkErrorHandler(err, request, reply);
    },
    // An HTTP/1.1 request without Host is refused by installErrorHandling, in the envelope.
    http: { requireHostHeader: false },
    routerOptions: { maxParamLength: 512 },
  });
  app.setValidatorCompiler(validatorCompiler);
  installErrorHandling(app, { onDatabaseFault });

  // The last bodyless request's objects (reply → request, the raw request and response, the
  // socket), held until the next one replaces them. Why: V8's optimized code refers to the
  // hidden classes ("maps") of these objects only weakly, and between requests no instance
  // may be alive, so a full GC at an idle moment (V8's memory reducer runs one when a busy
  // process goes quiet; the benchmark forces one before each run) frees the maps and
  // deoptimizes every function that used them: about 110 functions of the request path, which
  // then run unoptimized and are compiled again under the next requests' load (measured: the
  // five seconds after such a GC cost 36 % more CPU per request). With one exchange held, the
  // maps survive; about 35 functions are still deoptimized (the socket writes', whose objects
  // live only during a write). The same cause and cure as src/lib/tick-object-shape.ts.
  const lastExchange: { reply: unknown } = { reply: null };

  // Callback hooks rather than async ones: they run on every request, and an async hook costs a
  // promise and a microtask turn each (bench/http-auth.js measures the difference).
  // The metrics are recorded here too rather than in a hook of their own (one call per hook).
  // The route label is the route's pattern, never the URL (whose values are unbounded).
  app.addHook('onResponse', (request, reply, done) => {
    const ms = reply.elapsedTime;
    logRequestEnd(request, reply.statusCode, ms);
    metrics.httpRequest(request.routeOptions.url ?? UNMATCHED_ROUTE, request.method, reply.statusCode, ms / 1000);
    // A bodyless exchange only: one with a body would keep that body alive until the next one.
    if (request.body === undefined) lastExchange.reply = reply;
    done();
  });

  installJsonParser(app);
  // HTML forms (ping echoes them); other routes' schemas refuse what they do not expect.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) =>
    done(null, parseForm(body as string)),
  );
  installNulGuard(app);
  // No per-request cookie parsing: the auth hook reads the Cookie header only when one is sent.
  await app.register(cookie, { hook: false });
  installAuthentication(app, auth, settings.allowedOrigins, metrics);
  await registerOpenApi(app);
  return app;
}
