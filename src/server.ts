// `platform-core serve`: start, listen, and shut down gracefully on SIGTERM/SIGINT (stop
// accepting, let in-flight requests finish, then close the database).
import type { FastifyInstance } from 'fastify';
import type { Config } from './config/config.js';
import { createServices, type Services } from './services.js';
import { buildApp } from './http/app.js';
import { createLogger } from './http/logger.js';

export interface RunningServer {
  app: FastifyInstance;
  services: Services;
  url: string;
  stop(): Promise<void>;
}

export async function startServer(config: Config, opts: { handleSignals?: boolean } = {}): Promise<RunningServer> {
  const logger = createLogger(config.settings.logLevel);
  const services = await createServices(config, logger);
  const admin = services.bootstrap.createdAdmin;
  if (admin?.passwordFile) {
    logger.warn({ username: admin.username, file: admin.passwordFile }, `created administrator "${admin.username}"; its password is in ${admin.passwordFile}`);
  } else if (admin) {
    logger.info({ username: admin.username }, `created administrator "${admin.username}" from PLATFORM_ADMIN_USERNAME/PASSWORD`);
  }
  const app = await buildApp(services);
  let address: string;
  try {
    address = await app.listen({ port: config.port, host: config.host });
  } catch (err) {
    await app.close().catch(() => undefined);
    await services.close();
    throw err;
  }
  logger.info({ address, database: services.database.dialect, db: services.database.description }, `platform-core listening on ${address}`);

  let stopping: Promise<void> | null = null;
  const stop = () =>
    (stopping ??= (async () => {
      await app.close();
      await services.close();
    })());

  if (opts.handleSignals) {
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      process.once(signal, () => {
        logger.info({ signal }, 'shutting down');
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
  return { app, services, url: address, stop };
}
