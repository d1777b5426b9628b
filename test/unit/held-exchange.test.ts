// src/http/fastify-app.ts holds the last bodyless exchange (its reply, and through it the
// request, the raw request and response) so that an idle full GC cannot free the hidden classes
// the optimized request path was built for (the why is in fastify-app.ts; the bench measures
// the effect). Checked here by what it must do: the last GET's reply survives full GCs, a
// request with a body is never held, and each bodyless exchange replaces the one before.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { setTimeout as sleep } from 'node:timers/promises';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { createHttpApp } from '../../src/http/fastify-app.js';
import { loadConfig } from '../../src/config/config.js';
import { createLogger } from '../../src/http/logger.js';
import { Metrics } from '../../src/metrics/metrics.js';
import type { Authenticator } from '../../src/auth/authenticator.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Full GCs after the current job (a WeakRef's target is kept until its job ends). */
async function collect(): Promise<void> {
  for (let i = 0; i < 3; i++) {
    await sleep(1);
    gc();
  }
}

describe('the last bodyless exchange is held', () => {
  const dir = mkdtempSync(join(tmpdir(), 'held-exchange-'));
  let app: FastifyInstance;
  let last: WeakRef<FastifyReply> | undefined;
  let url: string;
  const get = async () => (await fetch(`${url}/t`)).status;
  const post = async () =>
    (await fetch(`${url}/t`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":1}' }))
      .status;

  beforeAll(async () => {
    const settings = loadConfig({ DATA_DIR: dir }, dir).settings;
    const sink = new Writable({ write: (_chunk, _encoding, done) => done() });
    app = await createHttpApp({
      settings,
      logger: createLogger('warn', sink),
      // The routes below need no credential, so the authenticator is never called.
      auth: {} as Authenticator,
      onDatabaseFault: () => undefined,
      metrics: new Metrics(),
    });
    const handler = (_request: unknown, reply: FastifyReply) => {
      last = new WeakRef(reply);
      return reply.send({ ok: true });
    };
    app.get('/t', { config: { auth: 'none' } }, handler);
    app.post('/t', { config: { auth: 'none' } }, handler);
    // Over real HTTP: the server's responses are the class that reports their end
    // (src/http/response-end.ts), where the exchange is held.
    url = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps the last GET alive through full GCs, never one with a body, and only the last', async () => {
    expect(await get()).toBe(200);
    const firstGet = last!;
    await collect();
    expect(firstGet.deref()).toBeDefined();

    expect(await post()).toBe(200);
    const withBody = last!;
    await collect();
    expect(withBody.deref()).toBeUndefined();
    expect(firstGet.deref()).toBeDefined();

    expect(await get()).toBe(200);
    const secondGet = last!;
    await collect();
    expect(secondGet.deref()).toBeDefined();
    expect(firstGet.deref()).toBeUndefined();
  });
});
