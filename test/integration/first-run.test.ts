// What a new user met on a first run: the server's address answered 401, a port in use
// printed a stack trace, and a misspelt setting was ignored without a word.
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, dropTestDatabase, type TestDatabase } from '../support/databases.js';
import { startInstance, type Instance } from '../support/instance.js';
import { killChildren, runCli, said, startServe } from '../support/cli-child.js';

describe('GET /', () => {
  let db: TestDatabase;
  let instance: Instance;
  beforeAll(async () => {
    db = await createTestDatabase('sqlite');
    instance = await startInstance(db);
  });
  afterAll(async () => {
    await instance?.stop();
    if (db) await dropTestDatabase(db);
  });

  it('answers a small HTML page without credentials, with no script and a strict CSP', async () => {
    const r = await instance.request('/');
    expect(r.status, r.text).toBe(200);
    expect(r.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(r.headers.get('x-content-type-options')).toBe('nosniff');
    const html = r.text;
    expect(html).toMatch(/^<!DOCTYPE html>/);
    expect(html).toContain('<title>Platform Core</title>');
    expect(html.toLowerCase()).not.toContain('<script');
    expect(html).not.toMatch(/\son[a-z]+=/i); // no inline event handlers
    // The one style block is allowed by its hash, nothing else by anything.
    const csp = r.headers.get('content-security-policy') ?? '';
    expect(csp).toMatch(/^default-src 'none'; /);
    const style = /<style>([\s\S]*?)<\/style>/.exec(html)?.[1] as string;
    const hash = createHash('sha256').update(style).digest('base64');
    expect(csp).toContain(`style-src 'sha256-${hash}'`);
    expect(csp).not.toContain('unsafe-inline');
  });

  it('links the API reference, the admin console and /healthz, and the first and last answer', async () => {
    const { text } = await instance.request('/');
    const links = [...text.matchAll(/<a href="([^"]+)">/g)].map((m) => new URL(m[1] as string, `${instance.url}/`));
    expect(links.map((u) => u.pathname)).toEqual(['/docs', '/openapi.json', '/admin/', '/healthz']);
    for (const path of ['/docs', '/healthz', '/openapi.json', '/admin/']) {
      const r = await fetch(`${instance.url}${path}`);
      expect(r.status, path).toBe(200);
    }
  });

  it('is the same page when a bad credential is presented (public routes ignore it)', async () => {
    const r = await instance.request('/', { headers: { authorization: 'Bearer not.a.jwt' } });
    expect(r.status, r.text).toBe(200);
    expect(r.text).toContain('<title>Platform Core</title>');
  });
});

describe('serve', () => {
  let work: string;
  let busy: Server;
  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'platform-core-first-run-'));
    busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    killChildren();
    await new Promise((resolve) => busy.close(resolve));
    await rm(work, { recursive: true, force: true });
  });

  it('on a port already in use: one clear line, exit 1, no stack trace', async () => {
    const port = (busy.address() as { port: number }).port;
    const r = await runCli(['serve'], {
      env: { DATA_DIR: join(work, 'data'), PORT: String(port), HOST: '127.0.0.1' },
      cwd: work,
      timeoutMs: 60_000,
    });
    expect(r.code, said(r)).toBe(1);
    expect(r.stderr).toBe(
      `platform-core: port ${port} is already in use (another program listens on 127.0.0.1:${port}; ` +
        'stop it or set PORT to another port)\n',
    );
  });

  it('logs a warning for each unknown setting, naming the closest known one, and starts', async () => {
    const cwd = join(work, 'with-settings');
    await rm(cwd, { recursive: true, force: true });
    mkdirSync(cwd);
    writeFileSync(join(cwd, 'appsettings.json'), JSON.stringify({ Settings: { JwtExpireHour: 12, OwnerName: 'X' } }));
    const server = await startServe({ env: { DATA_DIR: join(cwd, 'data') }, cwd, startTimeoutMs: 60_000 });
    try {
      const line = await server.logged(/unknown setting/);
      expect(line.level).toBe(40); // pino's warn
      expect(line.msg).toBe(
        `unknown setting Settings:JwtExpireHour in ${join(cwd, 'appsettings.json')} is ignored; ` +
          'did you mean Settings:JwtExpireHours?',
      );
      expect(server.logLines().filter((l) => /unknown setting/.test(String(l.msg)))).toHaveLength(1);
      expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  });
});
