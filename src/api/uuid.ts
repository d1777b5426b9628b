// GET /api/core/system/uuid and /uuids?n=: bare values (no envelope), no credentials needed.
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorEnvelope } from '../http/envelope.js';
import { SqlServerUuidGenerator, UuidV7Generator } from '../system/sqlserver-uuid.js';

export const MAX_UUIDS = 10_000;

const Format = Type.Optional(
  Type.Union([Type.Literal('sqlserver'), Type.Literal('rfc')], {
    default: 'sqlserver',
    description: 'sqlserver (default): ordered for SQL Server uniqueidentifier; rfc: standard UUIDv7',
  }),
);

export const uuidRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const sqlserver = new SqlServerUuidGenerator();
  const rfc = new UuidV7Generator();
  const pick = (format?: string) => (format === 'rfc' ? rfc : sqlserver);

  app.get('/api/core/system/uuid', {
    config: { auth: 'none' },
    schema: {
      tags: ['system'],
      summary: 'One time-ordered UUID (a bare JSON string)',
      querystring: Type.Object({ format: Format }),
      response: { 200: Type.String({ format: 'uuid' }), 400: ErrorEnvelope },
    },
    // A bare JSON string: a string payload would otherwise go out as text/plain.
    handler: async (request, reply) =>
      reply.type('application/json; charset=utf-8').send(JSON.stringify(pick(request.query.format).next())),
  });

  app.get('/api/core/system/uuids', {
    config: { auth: 'none' },
    schema: {
      tags: ['system'],
      summary: 'n time-ordered UUIDs (a bare JSON array), in creation order',
      querystring: Type.Object({ n: Type.Integer({ minimum: 1, maximum: MAX_UUIDS }), format: Format }),
      response: { 200: Type.Array(Type.String({ format: 'uuid' })), 400: ErrorEnvelope },
    },
    handler: async (request, reply) => {
      const gen = pick(request.query.format);
      const out = new Array<string>(request.query.n);
      for (let i = 0; i < out.length; i++) out[i] = gen.next();
      // Plain JSON.stringify of an array of short strings beats a schema serializer here.
      return reply
        .type('application/json; charset=utf-8')
        .serializer((v: unknown) => JSON.stringify(v))
        .send(out);
    },
  });
};
