// GET /metrics in the Prometheus text format: the answer itself (shared with the public port's
// token-protected route, src/api/metrics.ts), and METRICS_PORT's listener of its own, which
// serves it without credentials (the port is for the monitoring network only). The listener is
// a Fastify app with nothing but that route, the request ids and the error envelope.
import Fastify, { LogController, type FastifyBaseLogger, type FastifyReply } from 'fastify';
import type { Logger } from 'pino';
import type { Metrics } from '../metrics/metrics.js';
import { requestIdFor } from './request-id.js';
import { installErrorHandling } from './error-handler.js';

export const METRICS_PATH = '/metrics';

/** Answers with the instance's metrics as text. */
export async function sendMetrics(reply: FastifyReply, metrics: Metrics): Promise<FastifyReply> {
  const { contentType, text } = await metrics.scrape();
  return reply.header('Cache-Control', 'no-store').type(contentType).send(text);
}

export interface MetricsListener {
  /** Where it listens, e.g. http://127.0.0.1:9464. */
  url: string;
  close(): Promise<void>;
}

export async function startMetricsListener(opts: {
  port: number;
  host: string;
  metrics: Metrics;
  logger: Logger;
}): Promise<MetricsListener> {
  const app = Fastify({
    loggerInstance: opts.logger as FastifyBaseLogger,
    logController: new LogController({ disableRequestLogging: true, requestIdLogLabel: 'requestId' }),
    genReqId: requestIdFor,
    // A scraper keeps its connection open between scrapes: closing must not wait for it.
    forceCloseConnections: true,
  });
  installErrorHandling(app, { logger: opts.logger });
  app.get(METRICS_PATH, (_request, reply) => sendMetrics(reply, opts.metrics));
  try {
    const address = await app.listen({ port: opts.port, host: opts.host });
    return { url: address, close: () => app.close() };
  } catch (err) {
    await app.close().catch(() => undefined);
    throw err;
  }
}
