// The Fastify instance with its cross-cutting pieces: logging, request ids, validation, error
// mapping, body parsers, authentication and the OpenAPI document. The routes are not here:
// src/api/ registers them on this instance.
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
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
import { redactRequestUrl, redactUrl } from './url-redaction.js';
import { responseTracker } from './response-end.js';
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
  // Whether a request that took `ms` gets an access line (Settings:AccessLog) or a slow line
  // (Settings:SlowRequestMs); the line itself is built only then (redacting its URL costs).
  const logsEnd = (ms: number): boolean => settings.accessLog || ms >= settings.slowRequestMs;
  const logRequestEnd = (log: FastifyBaseLogger, method: string, url: string, statusCode: number, ms: number) => {
    const line = { method, url, statusCode, responseTimeMs: Math.round(ms * 10) / 10 };
    if (ms >= settings.slowRequestMs) log.warn(line, 'slow request');
    else log.info(line, 'request completed');
  };

  // The last bodyless exchange (its reply → request, the raw request and response, the
  // socket), held until the next one replaces it. Why: V8's optimized code refers to the
  // hidden classes ("maps") of these objects only weakly, and between requests no instance
  // may be alive, so a full GC at an idle moment (V8's memory reducer runs one when a busy
  // process goes quiet; the benchmark forces one before each run) frees the maps and
  // deoptimizes every function that used them: about 110 functions of the request path, which
  // then run unoptimized and are compiled again under the next requests' load (measured: the
  // five seconds after such a GC cost 36 % more CPU per request). With one exchange held, the
  // maps survive; about 35 functions are still deoptimized (the socket writes', whose objects
  // live only during a write). The same cause and cure as src/lib/tick-object-shape.ts.
  const lastExchange: { reply: unknown } = { reply: null };

  // Every answered request: its metrics (labelled by the route's pattern, never the URL, whose
  // values are unbounded) and its access or slow line. Never throws into Node's response
  // machinery: a failure here is logged and the response is not affected.
  const responses = responseTracker((reply, res, ms) => {
    try {
      const request = reply?.request;
      const method = request?.method ?? res.req.method ?? '';
      metrics.httpRequest(request?.routePattern ?? UNMATCHED_ROUTE, method, res.statusCode, ms / 1000);
      if (request === undefined) {
        if (!logsEnd(ms)) return;
        // Node answered it (src/http/error-handler.ts): the id is the one its answer carries.
        const id = res.getHeader('x-request-id');
        const log = (typeof id === 'string' ? logger.child({ requestId: id }) : logger) as FastifyBaseLogger;
        logRequestEnd(log, method, redactUrl(res.req.url ?? ''), res.statusCode, ms);
        return;
      }
      if (logsEnd(ms))
        logRequestEnd(request.log, method, redactRequestUrl(request.url, request.query), res.statusCode, ms);
      // A bodyless exchange only: one with a body would keep that body alive until the next one.
      if (request.body === undefined) lastExchange.reply = reply;
    } catch (err) {
      logger.error({ err }, 'recording the end of a response failed');
    }
  });

  const app = Fastify({
    // No loggerInstance: given one, Fastify times every request with listeners of its own
    // (src/http/response-end.ts says why we do not want them). Requests still log through our
    // logger: the child logger factory below ignores Fastify's stand-in parent.
    // Per-request access lines are ours to write (off by default, Settings:AccessLog).
    logController: new LogController({ disableRequestLogging: true, requestIdLogLabel: 'requestId' }),
    genReqId: requestIdFor,
    bodyLimit: settings.bodyLimitBytes,
    trustProxy: settings.trustProxy,
    forceCloseConnections: 'idle',
    clientErrorHandler,
    childLoggerFactory: (_standIn, bindings, options) =>
      lazyChildLoggerFactory(logger as FastifyBaseLogger, bindings, options),
    // Requests the router refuses (a bad URL) run no hooks: the handler tracks their reply.
    frameworkErrors: (err, request, reply) => {
      responses.track(reply);
      frameworkErrorHandler(err, request, reply);
    },
    // An HTTP/1.1 request without Host is refused by installErrorHandling, in the envelope.
    http: { requireHostHeader: false, ServerResponse: responses.ServerResponse },
    routerOptions: { maxParamLength: 512 },
  });
  app.setValidatorCompiler(validatorCompiler);
  installErrorHandling(app, { logger, onDatabaseFault, track: responses.track });

  installJsonParser(app);
  // HTML forms (ping echoes them); other routes' schemas refuse what they do not expect.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) =>
    done(null, parseForm(body as string)),
  );
  installNulGuard(app);
  // No per-request cookie parsing: the auth hook reads the Cookie header only when one is sent.
  await app.register(cookie, { hook: false });
  installAuthentication(app, {
    auth,
    allowedOrigins: settings.allowedOrigins,
    metrics,
    track: responses.track,
    mfa: { freshMinutes: settings.mfaFreshMinutes, requiredRoles: settings.mfaRequiredRoles },
  });
  await registerOpenApi(app);
  return app;
}
