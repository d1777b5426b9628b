// GET /api/core/system/ping: a connectivity test that reports whether the caller is
// authenticated (an invalid credential here is `authenticated: false`, never a 401).
import { Type } from 'typebox';
import type { FastifyInstance } from 'fastify';
import { EnvelopeOf, sendEnvelope } from '../http/envelope.js';
import { VERSION } from '../lib/version.js';

export const PingAnswer = EnvelopeOf(
  Type.Object({
    items: Type.Object({ authenticated: Type.Boolean(), username: Type.String(), version: Type.String() }),
    body: Type.Unknown({ description: 'the request body as received, or null' }),
  }),
);

export function pingRoutes(app: FastifyInstance): void {
  app.get('/api/core/system/ping', {
    config: { auth: 'optional' },
    schema: { tags: ['system'], summary: 'Connectivity test', response: { 200: PingAnswer } },
    handler: async (request, reply) => {
      const p = request.principal;
      return sendEnvelope(reply, { items: { authenticated: p !== null, username: p?.account.username ?? '', version: VERSION }, body: null }, 'OK');
    },
  });
}
