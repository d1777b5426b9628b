// The authorization and input matrix of /api/srs (on SQLite and
// PostgreSQL), with the statuses README "Reports (SRS)" documents, and proof that a template
// name never reaches a file outside the app's templates/ folder.
import { execFileSync } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { mkdirSync, realpathSync, rmSync } from 'node:fs';
import { join, sep } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { dropTestDatabase, testDatabaseKinds } from '../support/databases.js';
import { startSrsFixture, type SrsFixture } from './srs-fixture.js';

/** Every SRS route, with placeholder-free paths (SRS 1 and the template "invoice" exist). */
const ROUTES: Array<[method: 'GET' | 'POST', path: string]> = [
  ['GET', '/api/srs/1'],
  ['GET', '/api/srs/1/data.json'],
  ['POST', '/api/srs/1/data.json'],
  ['GET', '/api/srs/1/invoice.frx.html'],
  ['POST', '/api/srs/1/invoice.frx.html'],
  ['GET', '/api/srs/1/invoice.frx.pdf'],
  ['POST', '/api/srs/1/invoice.frx.pdf'],
  ['GET', '/api/srs/1/invoice.frx'],
  ['POST', '/api/srs/1/invoice.frx'],
  ['GET', '/api/srs/1/_new.frx'],
  ['POST', '/api/srs/1/_new.frx'],
];

/** A raw request, so the path reaches the server exactly as written (fetch would normalise `..`). */
function rawGet(url: string, path: string, jwt: string): Promise<{ status: number; body: string }> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: u.hostname,
        port: u.port,
        path,
        method: 'GET',
        headers: { Authorization: `Bearer ${jwt}` },
        timeout: 10_000,
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('timeout', () =>
      req.destroy(new Error(`no answer for ${path} within 10 s (did something open a FIFO canary?)`)),
    );
    req.on('error', reject);
    req.end();
  });
}

describe.each(testDatabaseKinds())('SRS authorization and input matrix on %s', (kind) => {
  let f: SrsFixture;

  beforeAll(async () => {
    f = await startSrsFixture(kind);
  });
  afterAll(async () => {
    await f?.inst.stop();
    if (f) await dropTestDatabase(f.db);
  });

  const call = (jwt: string | null, method: 'GET' | 'POST', path: string) =>
    f.as(jwt, path, method === 'POST' ? { method, json: {} } : { method });
  const withApp = (path: string, app = 'demo') => `${path}${path.includes('?') ? '&' : '?'}app_name=${app}`;

  it('no credentials: 401 with WWW-Authenticate on every route', async () => {
    for (const [method, path] of ROUTES) {
      const r = await call(null, method, withApp(path));
      expect(r.status, `${method} ${path}`).toBe(401);
      expect(r.headers.get('www-authenticate'), `${method} ${path}`).toBeTruthy();
      expect(r.body.data.code).toBe('authentication_required');
    }
    const bad = await f.as('not.a.jwt', withApp('/api/srs/1/data.json'));
    expect(bad.status).toBe(401);
  });

  it('the app: a role for it is needed (403), unknown apps are 400, a missing context is 400', async () => {
    // dora holds app_demo only.
    for (const [method, path] of ROUTES.filter(([, p]) => !p.endsWith('_new.frx'))) {
      expect((await call(f.doraJwt, method, withApp(path))).status, `${method} ${path}`).toBe(200);
      const other = await call(f.doraJwt, method, withApp(path, 'other'));
      expect(other.status, `${method} ${path} in other`).toBe(403);
      expect(other.body.data.code).toBe('app_not_allowed');
      // nemo holds no app role at all.
      expect((await call(f.nemoJwt, method, withApp(path))).body.data.code, `${method} ${path} as nemo`).toBe(
        'app_not_allowed',
      );
    }
    // The role check comes first: a caller without app_administrator learns nothing about app names.
    expect((await f.as(f.doraJwt, withApp('/api/srs/1', 'nope'))).status).toBe(403);
    const unknown = await f.as(f.adminJwt, withApp('/api/srs/1', 'nope'));
    expect(unknown.status).toBe(400);
    expect(unknown.body.data.code).toBe('unknown_app');
    const invalid = await f.as(f.adminJwt, withApp('/api/srs/1', '..%2F..%2Fetc'));
    expect(invalid.status).toBe(400);
    // Without ?app_name the caller's context (user_app_name) decides; without one, 400.
    const none = await f.as(f.doraJwt, '/api/srs/1/data.json');
    expect(none.status).toBe(400);
    expect(none.body.data.code).toBe('app_required');
    expect((await f.as(f.doraJwt, '/api/core/account/context/demo', { method: 'POST' })).status).toBe(200);
    expect((await f.as(f.doraJwt, '/api/srs/1/data.json')).status).toBe(200);
    // ?app_name wins over the context.
    expect((await f.as(f.doraJwt, '/api/srs/1/data.json?app_name=other')).status).toBe(403);
    // A role revoked after the context was set is checked on every request.
    await sql`DELETE FROM user_roles WHERE role_name = 'app_demo'`.execute(f.inst.services.database.db);
    f.inst.services.auth.invalidateAccount(
      (
        await f.inst.services.database.db
          .selectFrom('users')
          .select('id')
          .where('username', '=', 'dora')
          .executeTakeFirstOrThrow()
      ).id,
    );
    expect((await f.as(f.doraJwt, '/api/srs/1/data.json')).status).toBe(403);
    await sql`INSERT INTO user_roles (user_id, role_name)
              SELECT id, 'app_demo' FROM users WHERE username = 'dora'`.execute(f.inst.services.database.db);
    f.inst.services.auth.invalidateAccount(
      (
        await f.inst.services.database.db
          .selectFrom('users')
          .select('id')
          .where('username', '=', 'dora')
          .executeTakeFirstOrThrow()
      ).id,
    );
  });

  it('_new.frx needs srs_administrator (403) besides the app', async () => {
    for (const method of ['GET', 'POST'] as const) {
      const r = await call(f.doraJwt, method, withApp('/api/srs/1/_new.frx'));
      expect(r.status).toBe(403);
      expect(r.body.data.code).toBe('forbidden');
      expect(r.body.message).toContain('srs_administrator');
      expect((await call(f.adminJwt, method, withApp('/api/srs/1/_new.frx'))).status).toBe(200);
    }
  });

  it('unknown SRS: 404; an id that cannot be one: 400', async () => {
    for (const path of [
      '/api/srs/999',
      '/api/srs/999/data.json',
      '/api/srs/999/invoice.frx.html',
      '/api/srs/999/invoice.frx.pdf',
      '/api/srs/999/invoice.frx',
      '/api/srs/999/_new.frx',
      '/api/srs/1x/data.json',
    ]) {
      const r = await f.as(f.adminJwt, withApp(path));
      expect(r.status, path).toBe(404);
      expect(r.body.data.code, path).toBe('srs_not_found');
    }
    // "1" must not match "10-…" or "1.xml.bak".
    for (const id of ['..', '1-invoice', '%2e%2e', '1%2F..']) {
      const r = await f.as(f.adminJwt, withApp(`/api/srs/${id}/data.json`));
      expect([400, 404], id).toContain(r.status);
      expect(r.body.success).toBe(false);
    }
  });

  it('unknown template: 404 template_not_found, matched exactly and case-sensitively', async () => {
    for (const name of [
      'nope',
      'INVOICE',
      'Invoice',
      'invoice ',
      'invoice.frx',
      ' invoice',
      'secret',
      'seed',
      '1-invoice',
    ]) {
      const r = await f.as(f.adminJwt, withApp(`/api/srs/1/${encodeURIComponent(name)}.frx.html`));
      expect(r.status, JSON.stringify(name)).toBe(404);
      expect(r.body.data.code, JSON.stringify(name)).toBe('template_not_found');
    }
    // Before any SQL: a wrong template name never runs the commands (an invalid param is not even looked at).
    expect((await f.as(f.adminJwt, withApp('/api/srs/1/nope.frx.html?order_id=abc'))).status).toBe(404);
  });

  describe('template names that try to leave templates/', () => {
    // FIFOs named like what each traversal would reach: opening one for reading blocks until a
    // writer appears, so a request that opened one would hang (the raw client gives up after
    // 10 s and the test fails) instead of answering at once.
    let canaries: string[] = [];
    beforeAll(() => {
      canaries = [
        join(f.appsDir, 'demo', 'secret.frx'),
        join(f.appsDir, 'secret.frx'),
        join(f.appsDir, 'demo', 'srs', 'secret.frx'),
        join(f.appsDir, 'other', 'templates', 'secret.frx'),
      ];
      mkdirSync(join(f.appsDir, 'demo', 'srs'), { recursive: true });
      for (const c of canaries) execFileSync('mkfifo', [c]);
    });
    afterAll(() => {
      for (const c of canaries) rmSync(c, { force: true });
    });

    const TRAVERSALS: Array<[name: string, statuses: number[]]> = [
      ['..%2Fsecret', [400]],
      ['..%2F..%2Fsecret', [400]],
      ['..%2Fsrs%2Fsecret', [400]],
      ['..%2F..%2Fother%2Ftemplates%2Fsecret', [400]],
      ['%2e%2e%2fsecret', [400]],
      ['%2E%2E%2Fsecret', [400]],
      ['..%5Csecret', [400]],
      ['..', [400]],
      ['%2e%2e', [400]],
      ['.%2Fsecret', [400]],
      ['%2Fetc%2Fpasswd', [400]],
      ['a..b', [400]],
      ['.hidden', [400]],
      ['%00', [400]],
      ['invoice%00', [400]],
      ['invoice%00.png', [400]],
      ['inv%0Aoice', [400, 404]], // the router does not match a raw-newline parameter: route_not_found
      // double-encoded: the literal name "%2e%2e%2Fsecret", which is not a file
      ['%25%32%65%25%32%65%25%32%46secret', [404]],
      ['a'.repeat(201), [400]],
      ['a'.repeat(600), [414]], // beyond the router's parameter limit
      ['..%252Fsecret', [400]], // decoded once: the literal name "..%2Fsecret", which still holds ".."
      ['%C0%AE%C0%AE%2Fsecret', [400]], // overlong UTF-8 for "." (not valid UTF-8: decoded as U+FFFD, still has "/")
    ];

    it('are refused before the file system is asked about them (400/404/414), for every format', async () => {
      const readdir = vi.spyOn(f.inst.services.srs.templates.fs, 'readdir');
      const lstat = vi.spyOn(f.inst.services.srs.templates.fs, 'lstat');
      const render = vi.spyOn(f.inst.services.srs.pool, 'render');
      try {
        for (const [name, statuses] of TRAVERSALS) {
          for (const suffix of ['.frx.html', '.frx.pdf', '.frx']) {
            const path = `/api/srs/1/${name}${suffix}?app_name=demo`;
            const r = await rawGet(f.inst.url, path, f.adminJwt);
            expect(statuses, `${path} → ${r.status} ${r.body.slice(0, 200)}`).toContain(r.status);
            const body = JSON.parse(r.body) as { success: boolean; data: { code: string } };
            expect(body.success).toBe(false);
            // bad_url: the router itself refuses percent-encoding that is not UTF-8.
            if (r.status === 400) expect(['invalid_template_name', 'bad_url'], path).toContain(body.data.code);
          }
        }
        // Unnormalised dot segments never reach a template route at all.
        for (const path of [
          '/api/srs/1/../secret.frx.html?app_name=demo',
          '/api/srs/1/templates/../../secret.frx.html?app_name=demo',
          '/api/srs/../demo/secret.frx.html?app_name=demo',
        ]) {
          const r = await rawGet(f.inst.url, path, f.adminJwt);
          expect([400, 404], `${path} → ${r.status}`).toContain(r.status);
        }
        const templatesDir = realpathSync(join(f.appsDir, 'demo', 'templates'));
        const touched = [...readdir.mock.calls.map((c) => c[0]), ...lstat.mock.calls.map((c) => c[0])].map((p) =>
          realpathSync(p),
        );
        for (const p of touched) expect(p === templatesDir || p.startsWith(templatesDir + sep), p).toBe(true);
        expect(lstat).not.toHaveBeenCalled(); // nothing matched, so not even an lstat inside templates/
        expect(render).not.toHaveBeenCalled();
      } finally {
        readdir.mockRestore();
        lstat.mockRestore();
        render.mockRestore();
      }
    });

    it('a real render opens only the template inside templates/', async () => {
      const render = vi.spyOn(f.inst.services.srs.pool, 'render');
      try {
        const r = await rawGet(f.inst.url, '/api/srs/1/invoice.frx.html?app_name=demo', f.adminJwt);
        expect(r.status).toBe(200);
        expect(render).toHaveBeenCalledTimes(1);
        expect(realpathSync(render.mock.calls[0]![0].templatePath)).toBe(
          join(realpathSync(join(f.appsDir, 'demo', 'templates')), 'invoice.frx'),
        );
      } finally {
        render.mockRestore();
      }
    });

    it('a symlink in templates/ pointing outside is not followed (404)', async () => {
      const link = join(f.appsDir, 'demo', 'templates', 'escape.frx');
      execFileSync('ln', ['-s', join(f.appsDir, 'other', 'templates', 'invoice.frx'), link]);
      try {
        const r = await f.as(f.adminJwt, '/api/srs/1/escape.frx.html?app_name=demo');
        expect(r.status).toBe(404);
        expect(r.body.data.code).toBe('template_not_found');
      } finally {
        rmSync(link);
      }
    });
  });

  it('SQL injection strings in params are data, never SQL', async () => {
    const attacks = [
      "' OR '1'='1",
      "x'); DROP TABLE demo_customers; --",
      "'; DELETE FROM demo_orders; SELECT '",
      '"; DROP TABLE demo_products; --',
      '1; UPDATE users SET password_hash = NULL',
      "Robert'); DROP TABLE users;--",
      '@raw :raw $1 ? %s',
      "\\'; DROP TABLE demo_order_lines; --",
    ];
    const db = f.inst.services.database.withApps;
    const count = async (table: string) =>
      Number(
        (await sql<{ n: number | string }>`SELECT COUNT(*) AS n FROM ${sql.table(`app.${table}`)}`.execute(db)).rows[0]
          ?.n,
      );
    const before = {
      customers: await count('demo_customers'),
      orders: await count('demo_orders'),
      products: await count('demo_products'),
      lines: await count('demo_order_lines'),
    };
    for (const attack of attacks) {
      // Echoed back exactly, through a typed and an untyped param, by GET and by POST.
      const get = await f.as(
        f.doraJwt,
        `/api/srs/90/data.json?app_name=demo&text=${encodeURIComponent(attack)}&raw` +
          `=${encodeURIComponent(attack)}&label=${encodeURIComponent(attack)}`,
      );
      expect(get.status, attack).toBe(200);
      expect(get.body.data.echo.text).toBe(attack);
      expect(get.body.data.echo.setup_value).toBe(attack);
      expect(get.body.data.matches).toEqual([]); // compared as a value: matches no customer
      const post = await f.as(f.doraJwt, '/api/srs/90/data.json?app_name=demo', {
        method: 'POST',
        json: { text: attack, raw: attack },
      });
      expect(post.body.data.echo.text).toBe(attack);
      expect(post.body.data.matches).toEqual([]);
      // In a typed param it is simply not a number.
      const typed = await f.as(
        f.doraJwt,
        `/api/srs/1/data.json?app_name=demo&order_id=${encodeURIComponent(`1001 ${attack}`)}`,
      );
      expect(typed.status).toBe(400);
    }
    expect({
      customers: await count('demo_customers'),
      orders: await count('demo_orders'),
      products: await count('demo_products'),
      lines: await count('demo_order_lines'),
    }).toEqual(before);
    // A value equal to a real name matches it: the comparison works, only as data.
    const real = await f.as(f.doraJwt, '/api/srs/90/data.json?app_name=demo&raw=Fjord%20%26%20Field%20AS');
    expect(real.body.data.matches).toEqual([{ name: 'Fjord & Field AS' }]);
  });

  it('bodies: not an object of scalars → 400; other content types → 415', async () => {
    const nested = await f.as(f.doraJwt, '/api/srs/90/data.json?app_name=demo', {
      method: 'POST',
      json: { text: ['a'] },
    });
    expect(nested.status).toBe(400);
    const array = await f.as(f.doraJwt, '/api/srs/90/data.json?app_name=demo', { method: 'POST', json: ['a'] });
    expect(array.status, array.text).toBe(400);
    const nul = await f.as(f.doraJwt, '/api/srs/90/data.json?app_name=demo', {
      method: 'POST',
      json: { text: 'a\u0000b' },
    });
    expect(nul.status).toBe(400);
    const xml = await f.as(f.doraJwt, '/api/srs/90/data.json?app_name=demo', {
      method: 'POST',
      body: '<x/>',
      headers: { 'content-type': 'application/xml' },
    });
    expect(xml.status).toBe(415);
    const form = await f.as(f.doraJwt, '/api/srs/90/data.json?app_name=demo', {
      method: 'POST',
      body: 'text=from+a+form&n=3',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.status).toBe(200);
    expect(form.body.data.echo).toMatchObject({ text: 'from a form', n: 3 });
  });
});
