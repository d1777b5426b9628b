// src/http/response-end.ts: every response the server sends over HTTP is counted and logged once,
// with its route pattern (or "unmatched"), method and status, whoever answered it: a route, the
// not-found handler, the framework error handler (a bad URL), or Node itself (a refused Expect);
// and Fastify adds no per-request listener to the responses (the reason the module exists).
import { once } from 'node:events';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createHttpApp } from '../../src/http/fastify-app.js';
import { loadConfig } from '../../src/config/config.js';
import { createLogger } from '../../src/http/logger.js';
import { Metrics } from '../../src/metrics/metrics.js';
import type { Authenticator } from '../../src/auth/authenticator.js';
import { Scrape } from '../support/prometheus.js';

/** A raw HTTP/1.1 request (fetch cannot send a bad URL or an odd Expect): its status. */
function rawStatus(url: string, path: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${url}${path}`, { headers, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the end of every response', () => {
  const dir = mkdtempSync(join(tmpdir(), 'response-end-'));
  const lines: Array<Record<string, unknown>> = [];
  const metrics = new Metrics();
  let app: FastifyInstance;
  let url: string;
  let plain: Server;
  let plainUrl: string;

  beforeAll(async () => {
    const settings = loadConfig({ DATA_DIR: dir, Settings__AccessLog: 'true' }, dir).settings;
    const sink = new Writable({
      write: (chunk: Buffer, _encoding, done) => {
        for (const line of chunk.toString('utf8').split('\n')) if (line) lines.push(JSON.parse(line));
        done();
      },
    });
    app = await createHttpApp({
      settings,
      logger: createLogger('info', sink),
      // The routes below need no credential, so the authenticator is never called.
      auth: {} as Authenticator,
      onDatabaseFault: () => undefined,
      metrics,
    });
    app.get('/items/:id', { config: { auth: 'none' } }, (_request, reply) => {
      reply.send({ finish: reply.raw.listenerCount('finish'), error: reply.raw.listenerCount('error') });
    });
    url = await app.listen({ port: 0, host: '127.0.0.1' });
    // The same Node's own count of listeners on a response, as the baseline.
    plain = createServer((_req, res) => {
      res.end(JSON.stringify({ finish: res.listenerCount('finish'), error: res.listenerCount('error') }));
    });
    plain.listen(0, '127.0.0.1');
    await once(plain, 'listening');
    plainUrl = `http://127.0.0.1:${(plain.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await app.close();
    plain.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('adds no listener to a response beyond what Node itself adds', async () => {
    const ours = await (await fetch(`${url}/items/1`)).json();
    const node = await (await fetch(plainUrl)).json();
    expect(ours).toEqual(node);
  });

  it('counts and logs each response once, by route pattern or as unmatched', async () => {
    const count = async (labels: Record<string, string>) =>
      new Scrape((await metrics.scrape()).text).value('platform_core_http_requests_total', labels) ?? 0;
    const route = { route: '/items/:id', method: 'GET', status: '200' };
    const missing = { route: 'unmatched', method: 'GET', status: '404' };
    const badUrl = { route: 'unmatched', method: 'GET', status: '400' };
    const refused = { route: 'unmatched', method: 'GET', status: '417' };
    const before = await Promise.all([route, missing, badUrl, refused].map(count));
    lines.length = 0;

    expect((await fetch(`${url}/items/2?ptoken=secret-value-123`)).status).toBe(200);
    expect((await fetch(`${url}/items/3`)).status).toBe(200);
    expect((await fetch(`${url}/nowhere`)).status).toBe(404);
    expect(await rawStatus(url, '/items/%zz')).toBe(400); // the router cannot decode the parameter
    expect(await rawStatus(url, '/items/4', { expect: 'something-else' })).toBe(417); // Node answers

    const after = await Promise.all([route, missing, badUrl, refused].map(count));
    expect(after.map((n, i) => n - before[i]!)).toEqual([2, 1, 1, 1]);
    const access = lines.filter((l) => l.msg === 'request completed');
    expect(access.map((l) => l.statusCode).sort()).toEqual([200, 200, 400, 404, 417]);
    // Every line carries its request id (the one its answer carries), none a credential.
    expect(access.filter((l) => typeof l.requestId === 'string')).toHaveLength(5);
    expect(JSON.stringify(access)).not.toContain('secret-value-123');
  });
});
