// Baseline: a bare Fastify 5 app (the same Fastify the platform uses, logger off, no hooks, no
// plugins, no schema) with one GET route answering the same JSON envelope as
// GET /api/core/system/ping does for an authenticated caller — same keys, same value types and
// (to the byte, give or take) the same length: a fresh UUID as requestID and a fresh timestamp
// with six fraction digits, as the real envelope has.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';
import { childOptions, serveUntilStopped, startOrDie } from './protocol.js';

const VERSION = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version;

startOrDie(async () => {
  const opts = childOptions();
  const username = opts.username ?? 'admin';
  const app = Fastify({ logger: false });
  app.get('/api/core/system/ping', async () => ({
    success: true,
    message: 'OK',
    requestID: randomUUID(),
    executed_at: new Date().toISOString().replace('Z', '000Z'),
    data: { items: { authenticated: true, username, version: VERSION }, body: null },
  }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = /** @type {import('node:net').AddressInfo} */ (app.server.address());
  serveUntilStopped(`http://127.0.0.1:${port}`, () => app.close());
});
