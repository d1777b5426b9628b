// /api/srs (docs/api.md, Reports; docs/reports.md): reports rendered from an SRS's
// data, GET or POST (params in the query string and/or a JSON body), plus the data itself and
// the definition. Every route needs authentication; the app and command checks are the
// service's. Binary answers carry `Content-Disposition: inline` with the file name.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Static } from 'typebox';
import { authSecurity, sendEnvelope, standardErrors } from '../http/envelope.js';
import { callerOf } from '../http/auth-hook.js';
import { AppError } from '../lib/errors.js';
import { inlineDisposition } from '../srs/content-disposition.js';
import { CommandFailedError } from '../srs/run-commands.js';
import { TRUNCATED_HEADER } from '../srs/max-pages-param.js';
import { RENDER_FORMATS, renderRouteSuffix } from '../srs/render-formats.js';
import { buildStarter, type SrsRequest, type SrsService } from '../srs/srs-service.js';
import { FONT_ROUTE_PREFIX } from './fonts.js';
import {
  RENDER_ANSWERS,
  RenderQuery,
  reportErrors,
  SrsCatalogAnswer,
  SrsBody,
  SrsDataAnswer,
  SrsDefinitionAnswer,
  SrsPath,
  SrsQuery,
  STARTER_ANSWER,
  TemplatePath,
} from './srs-schemas.js';
import { actorOf } from '../http/audit-actor.js';

const tags = ['reports'];
const security = authSecurity;

/** HTML reports are data-driven documents served from the API's origin: no script may run in
 *  them and they may load nothing from elsewhere (the export inlines styles and images; fonts
 *  come from this server's font route). */
export const HTML_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src data:; font-src 'self'; base-uri 'none'; " +
  "form-action 'none'; sandbox allow-popups allow-popups-to-escape-sandbox";

/** The font route as seen from a rendered report (/api/srs/:id/<name>.html): relative, so that
 *  it still points at this server's fonts behind a proxy that serves the API under a prefix. */
const FONT_BASE_URL = `../../..${FONT_ROUTE_PREFIX}`;

const RENDER_ROUTES = RENDER_FORMATS.map((format) => ({ suffix: renderRouteSuffix(format), format }));

/** The parts of a request the SRS service reads, as the route schemas type them. */
type SrsRouteRequest = FastifyRequest & {
  params: Static<typeof SrsPath>;
  query: Static<typeof SrsQuery> & Record<string, unknown>;
  /** SrsBody on POST (validated: an object of param values, or null); absent on GET. */
  body?: unknown;
};

function isParamObject(body: unknown): body is Record<string, unknown> {
  return body !== null && typeof body === 'object';
}

function srsRequest(request: SrsRouteRequest): SrsRequest {
  const body = request.body;
  return {
    caller: callerOf(request),
    id: request.params.id,
    appName: request.query.app_name,
    params: { query: request.query, body: isParamObject(body) ? body : undefined },
  };
}

/** Failures the error handler answers but does not log (only 5xx are): a failing command is an
 *  administrator's problem, so its full cause goes to the log with the request id. The routes of
 *  this plugin share it as their scope's onError hook. */
function logFailure(request: FastifyRequest, err: unknown): void {
  if (err instanceof CommandFailedError) {
    request.log.error(
      { err: err.cause, command: err.command, url: request.routeOptions.url },
      `SRS command "${err.command}" failed`,
    );
  } else if (err instanceof AppError && err.kind === 'unprocessable') {
    request.log.warn({ code: err.code, reason: err.message }, 'SRS report failed');
  }
}

/** Aborts the render when the client goes away before the answer is sent. */
function abortOnDisconnect(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) controller.abort(new Error('the client closed the connection'));
  });
  return controller.signal;
}

function sendDocument(reply: FastifyReply, body: Buffer, contentType: string, fileName: string): FastifyReply {
  reply
    .header('content-type', contentType)
    .header('content-disposition', inlineDisposition(fileName))
    .header('cache-control', 'no-store')
    .header('x-content-type-options', 'nosniff');
  if (contentType.startsWith('text/html')) reply.header('content-security-policy', HTML_CSP);
  return reply.send(body);
}

export const srsRoutes: FastifyPluginAsyncTypebox<{ srs: SrsService }> = async (app, { srs }) => {
  const methods = ['GET', 'POST'] as const;
  app.addHook('onError', (request, _reply, err, done) => {
    logFailure(request, err);
    done();
  });

  for (const method of methods) {
    const withBody =
      method === 'POST' ? { body: SrsBody, consumes: ['application/json', 'application/x-www-form-urlencoded'] } : {};
    const how = method === 'POST' ? ' (params in the query string and/or the body)' : ' (params in the query string)';

    app.route({
      method,
      url: '/api/srs/:id/_new.frx',
      config: { roles: ['srs_administrator'] },
      schema: {
        tags,
        security,
        summary: `A starter template wired to the SRS's data (srs_administrator)${how}`,
        params: SrsPath,
        querystring: SrsQuery,
        ...withBody,
        response: { 200: STARTER_ANSWER, ...reportErrors },
      },
      handler: async (request, reply) => {
        const r = await buildStarter(srs, srsRequest(request), { signal: abortOnDisconnect(reply) });
        return sendDocument(reply, r.output, 'application/xml; charset=utf-8', r.fileName);
      },
    });

    app.route({
      method,
      url: '/api/srs/:id/data.json',
      schema: {
        tags,
        security,
        summary: `The data of the SRS's commands, exactly as templates receive it${how}`,
        params: SrsPath,
        querystring: SrsQuery,
        ...withBody,
        response: { 200: SrsDataAnswer, ...reportErrors },
      },
      handler: async (request, reply) => {
        const r = await srs.data(srsRequest(request), { signal: abortOnDisconnect(reply) });
        const n = Object.keys(r.data).length;
        const skipped = r.skipped.length > 0 ? `; not allowed for the caller: ${r.skipped.join(', ')}` : '';
        return sendEnvelope(reply, r.data, `${n} ${n === 1 ? 'command' : 'commands'}${skipped}`);
      },
    });

    for (const { suffix, format } of RENDER_ROUTES) {
      app.route({
        method,
        url: `/api/srs/:id/:templatename${suffix}`,
        schema: {
          tags,
          security,
          summary:
            `The template ` +
            (format === 'frx'
              ? 'merged with the SRS data (.frx)'
              : `rendered with the SRS data as ${format.toUpperCase()}`) +
            how,
          params: TemplatePath,
          querystring: RenderQuery,
          ...withBody,
          response: { 200: RENDER_ANSWERS[format], ...reportErrors },
        },
        handler: async (request, reply) => {
          const r = await srs.render(srsRequest(request), request.params.templatename, format, {
            by: actorOf(request),
            fontBaseUrl: FONT_BASE_URL,
            signal: abortOnDisconnect(reply),
          });
          // Cut at the request's _max_pages: said in a header, never silently.
          if (r.outcome.truncated) reply.header(TRUNCATED_HEADER, `pages=${r.outcome.pages}`);
          return sendDocument(reply, r.outcome.output, r.outcome.contentType, r.fileName);
        },
      });
    }
  }

  app.get('/api/srs', {
    schema: {
      tags,
      security,
      summary: 'The apps, SRS definitions (with their params) and templates the caller may use',
      response: { 200: SrsCatalogAnswer, ...standardErrors },
    },
    handler: async (request, reply) => {
      const apps = await srs.catalog(callerOf(request));
      const n = apps.reduce((sum, a) => sum + a.definitions.length, 0);
      return sendEnvelope(reply, { apps }, `${apps.length} apps, ${n} reports`);
    },
  });

  app.get('/api/srs/:id', {
    schema: {
      tags,
      security,
      summary: 'The SRS definition: label, params, commands (their SQL only for srs_administrator), templates',
      params: SrsPath,
      querystring: SrsQuery,
      response: { 200: SrsDefinitionAnswer, ...reportErrors },
    },
    handler: async (request, reply) => {
      const view = await srs.describe(callerOf(request), request.params.id, request.query.app_name);
      return sendEnvelope(reply, view, view.label);
    },
  });
};
