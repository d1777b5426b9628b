// GET/POST /api/core/system/ping (docs/api.md, System utilities): a test
// endpoint for clients. It works with or without credentials and reports which; an invalid
// credential is `authenticated: false`, never a 401. GET can be asked to answer with a given
// status and `success`, and to echo a JSON value; POST echoes its body.
import { Type } from 'typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { EnvelopeOf, envelope } from '../http/envelope.js';
import { AppError } from '../lib/errors.js';
import { VERSION } from '../lib/version.js';
import { assertFiniteNumbers, parseJsonText } from '../http/echo-body.js';

export const PingAnswer = EnvelopeOf(
  Type.Object({
    items: Type.Object({ authenticated: Type.Boolean(), username: Type.String(), version: Type.String() }),
    body: Type.Unknown({ description: 'the request body as received, or null' }),
  }),
);

function answer(request: FastifyRequest, reply: FastifyReply, body: unknown, status = 200, success = true) {
  const p = request.principal;
  const data = { items: { authenticated: p !== null, username: p?.account.username ?? '', version: VERSION }, body };
  if (status >= 500) request.log.info({ requestedStatus: status }, 'ping answered with the status it was asked for');
  reply.code(status);
  // 204 and 304 carry no body by definition.
  return status === 204 || status === 304 ? reply.send() : reply.send(envelope(request, data, 'OK', success));
}

export const pingRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/api/core/system/ping', {
    config: { auth: 'optional' },
    schema: {
      tags: ['system'],
      summary: 'Connectivity test; can answer with a chosen status, success flag and echoed JSON',
      querystring: Type.Object({
        statusCode: Type.Optional(
          Type.Integer({ minimum: 200, maximum: 599, description: 'HTTP status of the reply (default 200)' }),
        ),
        success: Type.Optional(Type.Boolean({ description: 'the envelope success (default true)' })),
        body: Type.Optional(Type.String({ description: 'JSON text, echoed parsed as data.body' })),
      }),
      response: { 200: PingAnswer },
    },
    // Not async: a promise and a microtask turn per request are a measurable part of the cost
    // of the platform's cheapest route (bench/http-auth.js); a throw is still answered by
    // Fastify's error handling.
    handler: (request, reply) => {
      const { statusCode, success, body } = request.query;
      const echoed = body === undefined ? null : parseJsonText(body, 'body');
      answer(request, reply, echoed, statusCode ?? 200, success ?? true);
    },
  });

  app.post('/api/core/system/ping', {
    config: { auth: 'optional', acceptsNul: true },
    schema: {
      tags: ['system'],
      summary: 'Echo the body: JSON with its types kept, a form body as an object of strings',
      consumes: ['application/json', 'application/x-www-form-urlencoded'],
      response: { 200: PingAnswer },
    },
    handler: async (request, reply) => {
      const type = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
      // No body, or an empty one of whatever declared type, is "none sent".
      if (request.body === undefined || request.body === null || request.body === '')
        return answer(request, reply, null);
      if (type !== 'application/json' && type !== 'application/x-www-form-urlencoded') {
        throw new AppError(
          'unsupported_type',
          'unsupported_media_type',
          'ping accepts application/json or application/x-www-form-urlencoded',
        );
      }
      assertFiniteNumbers(request.body);
      return answer(request, reply, request.body);
    },
  });
};
