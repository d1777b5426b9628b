// What a new user meets on a first run: the page at the server's address (not a 401) and its icon,
// one clear line for a port in use, a warning for a misspelt setting, and the start banner.
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
import { VERSION } from '../../src/lib/version.js';

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

  it('serves an icon without credentials, cacheable: a 16×16 ICO at /favicon.ico, the SVG the pages link', async () => {
    const ico = await fetch(`${instance.url}/favicon.ico`);
    expect(ico.status).toBe(200);
    expect(ico.headers.get('content-type')).toBe('image/x-icon');
    expect(ico.headers.get('cache-control')).toBe('public, max-age=86400');
    const bytes = Buffer.from(await ico.arrayBuffer());
    // ICONDIR: reserved 0, type 1 (icon), one image; its entry: 16×16, 32 bits, the image after it.
    expect([bytes.readUInt16LE(0), bytes.readUInt16LE(2), bytes.readUInt16LE(4)]).toEqual([0, 1, 1]);
    expect([bytes[6], bytes[7], bytes.readUInt16LE(12), bytes.readUInt32LE(18)]).toEqual([16, 16, 32, 22]);
    expect(bytes.readUInt32LE(14)).toBe(bytes.length - 22);
    // The BMP header (height doubled for the masks), and every pixel painted (opaque).
    expect([bytes.readUInt32LE(22), bytes.readInt32LE(26), bytes.readInt32LE(30)]).toEqual([40, 16, 32]);
    const alphas = Array.from({ length: 256 }, (_, i) => bytes[62 + i * 4 + 3]);
    expect(new Set(alphas)).toEqual(new Set([0xff]));

    const home = await instance.request('/');
    const console = await fetch(`${instance.url}/admin/`).then((r) => r.text());
    const linked = (html: string, base: string) =>
      new URL(/<link rel="icon" href="([^"]+)" type="image\/svg\+xml">/.exec(html)?.[1] ?? '', base).pathname;
    expect(linked(home.text, `${instance.url}/`)).toBe('/favicon.svg');
    expect(linked(console, `${instance.url}/admin/`)).toBe('/favicon.svg');
    expect(home.headers.get('content-security-policy')).toContain("img-src 'self'");
    const svg = await fetch(`${instance.url}/favicon.svg`);
    expect(svg.status).toBe(200);
    expect(svg.headers.get('content-type')).toBe('image/svg+xml');
    expect(svg.headers.get('cache-control')).toBe('public, max-age=86400');
    expect(await svg.text()).toMatch(
      /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox="0 0 16 16"[\s\S]*<\/svg>\n$/,
    );
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

  it('on all interfaces: logs the bound address truthfully and prints one banner on stderr with the URLs', async () => {
    const dataDir = join(work, 'banner-data');
    const server = await startServe({ env: { DATA_DIR: dataDir, HOST: '0.0.0.0' }, cwd: work, startTimeoutMs: 60_000 });
    let ended: Awaited<typeof server.exited>;
    try {
      const line = await server.logged(/^platform-core listening on /);
      const port = /:(\d+)$/.exec(String(line.address))?.[1];
      expect(line.address).toBe(`http://0.0.0.0:${port}`);
      expect(line.msg).toBe(
        `platform-core listening on http://0.0.0.0:${port} (all interfaces; open http://localhost:${port})`,
      );
      expect(line).toMatchObject({ url: `http://localhost:${port}`, console: `http://localhost:${port}/admin/` });
      expect((await fetch(`${server.url}/admin/`)).status).toBe(200);
      // stdout stays the JSON log: every line an object.
      for (const l of server.logLines()) expect(l.level, JSON.stringify(l)).toEqual(expect.any(Number));
    } finally {
      server.child.kill('SIGTERM');
      ended = await server.exited;
    }
    const port = new URL(server.url).port;
    expect(ended.stderr).toBe(
      `Platform Core ${VERSION} is running, listening on all interfaces, port ${port} (http://0.0.0.0:${port})\n` +
        `  Admin console:  http://localhost:${port}/admin/\n` +
        `  API reference:  http://localhost:${port}/docs\n` +
        `  First administrator's password: in ${join(dataDir, 'initial-admin-password')}\n`,
    );
  });

  it('on one address: the banner names it; no password file for an administrator from the env', async () => {
    const server = await startServe({
      env: {
        DATA_DIR: join(work, 'banner-env-data'),
        HOST: '127.0.0.1',
        PLATFORM_ADMIN_USERNAME: 'boss',
        PLATFORM_ADMIN_PASSWORD: 'a long enough password for the chief',
      },
      cwd: work,
      startTimeoutMs: 60_000,
    });
    await server.logged(/^platform-core listening on /);
    server.child.kill('SIGTERM');
    const { stderr } = await server.exited;
    expect(stderr).toContain(`Platform Core ${VERSION} is running, listening on ${server.url} only\n`);
    expect(stderr).toContain(`  Admin console:  ${server.url}/admin/\n`);
    expect(stderr).not.toContain('password');
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
