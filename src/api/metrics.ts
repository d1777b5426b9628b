// GET /metrics on the public port, for Prometheus: registered only when Settings:MetricsToken is
// set, and answered only to `Authorization: Bearer <that token>` (401 in the envelope
// otherwise). The API's credentials (JWTs, API tokens) are not accepted here, whoever holds
// them: the route is `auth: 'none'` for the auth hook and checks its own token. Hidden from the
// OpenAPI document: it is the scraper's endpoint, not part of the API. The other way to serve
// the metrics is METRICS_PORT (src/http/metrics-listener.ts).
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsync } from 'fastify';
import type { Metrics } from '../metrics/metrics.js';
import { METRICS_PATH, sendMetrics } from '../http/metrics-listener.js';
import { unauthenticated } from '../lib/errors.js';

const digest = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();

/** Whether an Authorization header is `Bearer <token>`: compared as SHA-256 digests, which
 *  have one length, so the time taken tells neither the token's length nor its characters. */
export function bearerMatches(authorization: string | undefined, expected: Buffer): boolean {
  const m = /^\s*bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  return m !== null && timingSafeEqual(digest(m[1]!), expected);
}

export const metricsRoutes: FastifyPluginAsync<{ metrics: Metrics; token: string }> = async (
  app,
  { metrics, token },
) => {
  const expected = digest(token);
  app.get(METRICS_PATH, {
    config: { auth: 'none' },
    schema: { hide: true },
    handler: async (request, reply) => {
      const authorization = request.headers.authorization;
      if (authorization === undefined || authorization.trim() === '')
        throw unauthenticated('authentication_required', 'GET /metrics needs Authorization: Bearer <metrics token>');
      if (!bearerMatches(authorization, expected))
        throw unauthenticated('invalid_token', 'The metrics token is wrong (Settings:MetricsToken)');
      return sendMetrics(reply, metrics);
    },
  });
};
