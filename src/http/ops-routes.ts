// Liveness and readiness for orchestrators.
import { Type } from 'typebox';
import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import type { DatabaseHandle } from '../db/connect.js';
import { EnvelopeOf, ErrorEnvelope, sendEnvelope } from './envelope.js';
import { AppError } from '../lib/errors.js';

const Status = EnvelopeOf(Type.Object({ status: Type.String(), database: Type.Optional(Type.String()) }));

export function opsRoutes(app: FastifyInstance, database: DatabaseHandle): void {
  app.get('/healthz', {
    config: { auth: 'none' },
    schema: { tags: ['operations'], summary: 'The process is up', response: { 200: Status } },
    handler: async (_request, reply) => sendEnvelope(reply, { status: 'ok' }, 'OK'),
  });
  app.get('/readyz', {
    config: { auth: 'none' },
    schema: { tags: ['operations'], summary: 'The database answers', response: { 200: Status, 503: ErrorEnvelope } },
    handler: async (request, reply) => {
      try {
        await sql`select 1`.execute(database.db);
      } catch (err) {
        request.log.error({ err }, 'readiness check failed');
        throw new AppError(503, 'not_ready', 'The database is not reachable', { headers: { 'Retry-After': '5' } });
      }
      return sendEnvelope(reply, { status: 'ready', database: database.dialect }, 'OK');
    },
  });
}
