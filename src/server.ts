// `platform-core serve`: start, listen, and shut down gracefully on SIGTERM/SIGINT: stop
// accepting, close idle connections, let requests in progress finish for up to
// Settings:ShutdownGraceSeconds, close what is left, then close the database.
import type { FastifyInstance } from 'fastify';
import type { Config } from './config/config.js';
import { createServices, type Services } from './services.js';
import { buildApp } from './api/app.js';
import { createLogger } from './http/logger.js';
import { trackConnections } from './http/connection-drain.js';
import { startMetricsListener, type MetricsListener } from './http/metrics-listener.js';
import { listenAddress, type ListenAddress } from './http/listen-address.js';
import type { AddressInfo } from 'node:net';

/** After the grace period, how long closing the services (database, workers) may take before
 *  the process exits anyway: they hold no client's request any more. */
const SERVICES_CLOSE_MS = 5000;

export interface RunningServer {
  app: FastifyInstance;
  services: Services;
  /** A URL that reaches the server from this machine (localhost when it listens on all interfaces). */
  url: string;
  /** Where it is bound, and that URL. */
  listen: ListenAddress;
  /** METRICS_PORT's listener (GET /metrics without credentials), or null. */
  metricsUrl: string | null;
  stop(): Promise<void>;
}

export async function startServer(config: Config, opts: { handleSignals?: boolean } = {}): Promise<RunningServer> {
  const logger = createLogger(config.settings.logLevel);
  for (const warning of config.settingWarnings) logger.warn(warning);
  const services = await createServices(config, logger);
  const admin = services.bootstrap.createdAdmin;
  if (admin?.passwordFile) {
    logger.warn(
      { username: admin.username, file: admin.passwordFile },
      `created administrator "${admin.username}"; its password is in ${admin.passwordFile}`,
    );
  } else if (admin) {
    logger.info(
      { username: admin.username },
      `created administrator "${admin.username}" from PLATFORM_ADMIN_USERNAME/PASSWORD`,
    );
  }
  const app = await buildApp(services);
  const connections = trackConnections(app.server);
  let listen: ListenAddress;
  let metricsListener: MetricsListener | null = null;
  try {
    await app.listen({ port: config.port, host: config.host });
    // Fastify's answer names the first interface's address (127.0.0.1) for a wildcard host: the
    // socket's own address is the truth.
    listen = listenAddress(app.server.address() as AddressInfo);
    if (config.metricsPort !== null) {
      metricsListener = await startMetricsListener({
        port: config.metricsPort,
        host: config.metricsHost,
        metrics: services.metrics,
        logger,
      });
      logger.info({ address: metricsListener.url }, `metrics at ${metricsListener.url}/metrics`);
    }
  } catch (err) {
    await app.close().catch(() => undefined);
    await services.close();
    throw err;
  }
  const graceSeconds = config.settings.shutdownGraceSeconds;
  let stopping: Promise<void> | null = null;
  const stop = () =>
    (stopping ??= (async () => {
      connections.beginDraining();
      const metricsClosed = metricsListener?.close();
      const closed = app.close();
      let graceTimer: NodeJS.Timeout | undefined;
      const graceOver = new Promise<'grace over'>(
        (resolve) => (graceTimer = setTimeout(resolve, graceSeconds * 1000, 'grace over')),
      );
      if ((await Promise.race([closed, graceOver])) === 'grace over') {
        const cut = connections.closeAll();
        logger.warn(
          { graceSeconds, connections: cut },
          `shutdown grace period of ${graceSeconds} s is over: closed ${cut} connection(s) with a request ` +
            `still in progress`,
        );
      }
      clearTimeout(graceTimer);
      await closed;
      await metricsClosed;
      await services.close();
    })());

  if (opts.handleSignals) {
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      process.once(signal, () => {
        logger.info({ signal, graceSeconds }, 'shutting down');
        // Whatever hangs in closing the services must not keep the process past its deadline.
        setTimeout(
          () => {
            logger.error(
              { signal },
              `shutdown did not finish within ${graceSeconds + SERVICES_CLOSE_MS / 1000} s; exiting`,
            );
            process.exit(1);
          },
          graceSeconds * 1000 + SERVICES_CLOSE_MS,
        ).unref();
        stop().then(
          () => process.exit(0),
          (err) => {
            logger.error({ err }, 'shutdown failed');
            process.exit(1);
          },
        );
      });
    }
  }

  // Logged only now that the signal handlers are in place: a supervisor (or a test) that stops the
  // server as soon as it reads this line must find SIGTERM handled, not Node's default (an
  // immediate kill), even while the render workers are being started below.
  logger.info(
    {
      address: listen.bound,
      url: listen.url,
      console: `${listen.url}/admin/`,
      docs: `${listen.url}/docs`,
      database: services.database.dialect,
      db: services.database.description,
    },
    `platform-core listening on ${listen.bound}${listen.allInterfaces ? ` (all interfaces; open ${listen.url})` : ''}`,
  );
  // Only once listening: the workers load the engine and warm up on their own threads, so
  // readiness does not wait for them (a render that comes first is not delayed by a warm-up).
  if (config.settings.renderWarmup) services.srs.pool.warmUp();

  return { app, services, url: listen.url, listen, metricsUrl: metricsListener?.url ?? null, stop };
}
