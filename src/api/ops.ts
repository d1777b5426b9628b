// Liveness and readiness for orchestrators.
import { Type } from 'typebox';
import { sql } from 'kysely';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { DatabaseHandle } from '../db/connect.js';
import { EnvelopeOf, ErrorEnvelope, sendEnvelope } from '../http/envelope.js';
import { AppError, unavailable } from '../lib/errors.js';

const Status = EnvelopeOf(Type.Object({ status: Type.String(), database: Type.Optional(Type.String()) }));

/** An orchestrator's probe gives up after a few seconds: answer before it does. */
const READY_CHECK_MS = 1_500;
/** How long a prober should wait before asking again when the database is not ready. */
const READY_RETRY_AFTER_SECONDS = 5;

/** `work`, or a rejection once `ms` have passed (a frozen database holds the query much longer). */
function withinTime<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  // The query may still fail after the answer was given; that is not an unhandled rejection.
  work.catch(() => undefined);
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

export const opsRoutes: FastifyPluginAsyncTypebox<{ database: DatabaseHandle }> = async (app, { database }) => {
  app.get('/healthz', {
    config: { auth: 'none' },
    schema: { tags: ['operations'], summary: 'The process is up', response: { 200: Status } },
    handler: async (_request, reply) => sendEnvelope(reply, { status: 'ok' }, 'OK'),
  });
  app.get('/readyz', {
    config: { auth: 'none' },
    schema: { tags: ['operations'], summary: 'The database answers', response: { 200: Status, 503: ErrorEnvelope } },
    handler: async (_request, reply) => {
      try {
        await withinTime(sql`select 1`.execute(database.db), READY_CHECK_MS);
      } catch (err) {
        // The cause goes with the answer: the error handler logs it as the 503's reason.
        throw new AppError('unavailable', 'not_ready', 'The database is not reachable', {
          retryAfterSeconds: READY_RETRY_AFTER_SECONDS,
          cause: err,
        });
      }
      const problem = await database.storage.problem();
      if (problem) throw unavailable(problem, 'The database storage is full: writes fail', READY_RETRY_AFTER_SECONDS);
      return sendEnvelope(reply, { status: 'ready', database: database.dialect }, 'OK');
    },
  });
};
