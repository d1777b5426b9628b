// A real platform-core instance, built exactly as `platform-core serve` and the tests build it
// (loadConfig → createServices → buildApp), from the compiled dist/ — so `npm run bench` runs
// `npm run build` first. SQLite in the DATA_DIR the parent created; log lines at `warn` and
// above go to <dataDir>/server.log, which the parent reports afterwards.
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import { loadConfig } from '../../dist/config/config.js';
import { createServices } from '../../dist/services.js';
import { buildApp } from '../../dist/api/app.js';
import { createLogger } from '../../dist/http/logger.js';
import { holdTickObjectShape } from '../../dist/lib/tick-object-shape.js';
import { childOptions, serveUntilStopped, startOrDie } from './protocol.js';

// As bin/platform-core.js does before anything else (src/lib/tick-object-shape.ts).
holdTickObjectShape();

startOrDie(async () => {
  const opts = childOptions();
  // An explicit environment, not process.env: a DATABASE_URL or Settings__* of the shell must
  // not change what is measured. cwd = dataDir, so no appsettings.json is picked up either.
  const config = loadConfig(
    {
      DATA_DIR: opts.dataDir,
      PLATFORM_ADMIN_USERNAME: opts.username,
      PLATFORM_ADMIN_PASSWORD: opts.password,
      Settings__LogLevel: 'warn',
      ...(opts.env ?? {}),
    },
    opts.dataDir,
  );
  const stream = createWriteStream(join(opts.dataDir, 'server.log'), { flags: 'a' });
  const services = await createServices(config, createLogger(config.settings.logLevel, stream));
  const app = await buildApp(services);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = /** @type {import('node:net').AddressInfo} */ (app.server.address());
  serveUntilStopped(`http://127.0.0.1:${port}`, async () => {
    await app.close();
    await services.close();
    stream.end();
    await once(stream, 'close');
  });
});
