// The OpenAPI document and the Swagger UI, checked against a real validator and against the
// running app: every route is documented (and nothing else), what the document says about
// authentication is what the server does, and /docs loads with its assets.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Validator } from '@seriousme/openapi-schema-validator';
import type { FastifyInstance } from 'fastify';
import { createTestDatabase, dropTestDatabase, type TestDatabase } from '../support/databases.js';
import { ADMIN, startInstance, type Instance } from '../support/instance.js';

type Operation = {
  security?: Array<Record<string, string[]>>;
  parameters?: Array<{ in: string; name: string; required?: boolean }>;
  responses: Record<string, unknown>;
};
type OpenApiDocument = {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components?: { securitySchemes?: Record<string, unknown> };
};

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** Every (method, url) of the app, read from printRoutes' radix tree (node labels concatenated). */
function routesOf(app: FastifyInstance): Array<{ method: string; url: string }> {
  const routes: Array<{ method: string; url: string }> = [];
  const stack: string[] = [];
  for (const line of app.printRoutes().split('\n')) {
    const m = /^((?:│ {3}| {4})*)(?:├── |└── )(.+?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!m) continue;
    stack.length = (m[1] as string).length / 4;
    stack.push(m[2] as string);
    for (const method of m[3]?.split(', ') ?? []) routes.push({ method, url: stack.join('') });
  }
  return routes;
}

/** CONTRACT.md: the endpoints that need no credentials; every other endpoint requires them. */
const PUBLIC = [
  /^\/api\/core\/account\/login$/,
  // The second step of a login: its credential is the mfa_token in the body.
  /^\/api\/core\/account\/login\/mfa$/,
  /^\/api\/core\/system\/ping$/,
  /^\/api\/core\/system\/uuids?$/,
  /^\/healthz$/,
  /^\/readyz$/,
  // The report fonts, fetched by browsers without credentials.
  /^\/fonts\/\{file\}$/,
  // The page at the server's address.
  /^\/$/,
  // The admin console's page and bundles (its API calls need credentials).
  /^\/admin(\/|\/assets\/\{file\})?$/,
  // The instance's icon, which browsers fetch without credentials.
  /^\/favicon\.(ico|svg)$/,
];

/** GET /metrics is the scraper's, behind Settings:MetricsToken (not one of the five
 *  credential forms), so it is left out of the API document; it is not public either. */
const METRICS_TOKEN = 'openapi-test-metrics-token';
const SCRAPE_ROUTE = '/metrics';

const toOpenApiPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
const operationsOf = (doc: OpenApiDocument) =>
  Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => HTTP_METHODS.includes(method))
      .map(([method, op]) => ({ key: `${method.toUpperCase()} ${path}`, method: method.toUpperCase(), path, op })),
  );

describe('OpenAPI document and Swagger UI', () => {
  let db: TestDatabase;
  let instance: Instance;
  let doc: OpenApiDocument;

  beforeAll(async () => {
    db = await createTestDatabase('sqlite');
    // With a metrics token, so that GET /metrics exists and its place outside the document is checked.
    instance = await startInstance(db, { Settings__MetricsToken: METRICS_TOKEN });
    const r = await instance.request('/openapi.json');
    expect(r.status, r.text).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^application\/json/);
    doc = r.body as OpenApiDocument;
  });

  afterAll(async () => {
    await instance?.stop();
    if (db) await dropTestDatabase(db);
  });

  it('is served without credentials, even when a bad one is presented', async () => {
    const r = await instance.request('/openapi.json', { headers: { authorization: 'Bearer not.a.jwt' } });
    expect(r.status, r.text).toBe(200);
    expect(r.body.openapi).toBe(doc.openapi);
  });

  it('passes the OpenAPI schema validator', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc));
    expect(result.errors ?? [], JSON.stringify(result.errors, null, 1)?.slice(0, 4000)).toEqual([]);
    expect(result.valid).toBe(true);
    expect(doc.openapi).toMatch(/^3\./);
    expect(validator.version).toBe(doc.openapi.split('.').slice(0, 2).join('.'));
  });

  it('the validator rejects a broken copy (so the check above can fail)', async () => {
    const broken = structuredClone(doc) as unknown as Record<string, unknown>;
    const firstPath = Object.keys(doc.paths)[0] as string;
    (broken.paths as Record<string, unknown>)[firstPath] = { get: { responses: 'none' } };
    delete broken.info;
    const result = await new Validator().validate(broken);
    expect(result.valid).toBe(false);
  });

  it('documents every route of the app, and only those', () => {
    const routes = routesOf(instance.app);
    // Sanity: the parser saw the app's routes (hasRoute confirms each one exists as read).
    expect(routes.length).toBeGreaterThan(10);
    for (const r of routes)
      expect(instance.app.hasRoute({ method: r.method as 'GET', url: r.url }), `${r.method} ${r.url}`).toBe(true);

    const gets = new Set(routes.filter((r) => r.method === 'GET').map((r) => r.url));
    const served = routes
      // The UI's own routes and the document itself are not part of the API.
      .filter((r) => r.url !== '/openapi.json' && r.url !== '/docs' && !r.url.startsWith('/docs/'))
      .filter((r) => r.url !== SCRAPE_ROUTE)
      // HEAD for every GET is added by Fastify; OpenAPI documents the GET.
      .filter((r) => !(r.method === 'HEAD' && gets.has(r.url)))
      .map((r) => `${r.method} ${toOpenApiPath(r.url)}`)
      .sort();
    const documented = operationsOf(doc)
      .map((o) => o.key)
      .sort();
    expect(documented).toEqual(served);
    expect(gets.has(SCRAPE_ROUTE), 'the instance serves /metrics').toBe(true);
    expect(Object.keys(doc.paths)).not.toContain(SCRAPE_ROUTE);

    // The contract's minimum, so an empty app and an empty document cannot agree vacuously.
    for (const key of [
      'POST /api/core/account/login',
      'GET /api/core/account/logout',
      'GET /api/core/token/user',
      'GET /api/core/token/browse',
      'GET /api/core/token/user/{username}',
      'POST /api/core/token/create/{token_name}',
      'POST /api/core/token/create/{token_name}/{username}',
      'POST /api/core/token/delete/{token_name}/{username}',
      'GET /api/core/system/ping',
      'GET /healthz',
      'GET /readyz',
    ]) {
      expect(documented).toContain(key);
    }
  });

  it('documents the admin console endpoints with their parameters', () => {
    const keys = operationsOf(doc).map((o) => o.key);
    for (const key of [
      'GET /api/core/account/list',
      'GET /api/core/roles',
      'GET /api/core/team/members/{team_short}',
      'GET /api/core/system/instance',
    ])
      expect(keys).toContain(key);
    const list = doc.paths['/api/core/account/list']?.get as Operation;
    expect((list.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name)).toEqual([
      'q',
      'username',
      'sort',
      'order',
      'status',
      'role',
      'team',
      'limit',
      'offset',
    ]);
  });

  it('marks a request body required unless the route accepts none', async () => {
    type WithBody = { requestBody?: { required?: boolean } };
    const body = (path: string, method: string) => (doc.paths[path]?.[method] as WithBody | undefined)?.requestBody;
    // Required: login cannot work without one.
    expect(body('/api/core/account/login', 'post')?.required).toBe(true);
    // Optional: SRS params may all come from the query; a membership's level may be left out; a
    // token's limits (expires_in_days, roles) may come from the query or not at all.
    const optional = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([, op]) => (op as WithBody).requestBody?.required === false)
        .map(([method]) => `${method.toUpperCase()} ${path}`),
    );
    expect(optional.sort()).toEqual(
      [
        'POST /api/core/team/member/add/{team_short}/{username}',
        'POST /api/core/token/create/{token_name}',
        'POST /api/core/token/create/{token_name}/{username}',
        'POST /api/srs/{id}/_new.frx',
        'POST /api/srs/{id}/data.json',
        'POST /api/srs/{id}/{templatename}.frx',
        'POST /api/srs/{id}/{templatename}.frx.html',
        'POST /api/srs/{id}/{templatename}.frx.pdf',
      ].sort(),
    );
    // ...and the server agrees: a request without a body passes validation and reaches the
    // service (which then answers that there is no such SRS).
    const jwt = await instance.jwtFor(ADMIN.username, ADMIN.password);
    for (const entry of optional.filter((o) => o.startsWith('POST /api/srs/'))) {
      const url = entry.slice(5).replace('{id}', '999999').replace('{templatename}', 'x');
      const r = await instance.request(`${url}?app_name=demo`, {
        method: 'POST',
        headers: { authorization: `Bearer ${jwt}` },
      });
      expect(r.status, `${entry}: ${JSON.stringify(r.body)}`).toBe(404);
    }
  });

  it('declares every path parameter of every templated path', () => {
    for (const { key, path, op } of operationsOf(doc)) {
      const names = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
      const declared = (op.parameters ?? []).filter((p) => p.in === 'path');
      expect(declared.map((p) => p.name).sort(), key).toEqual([...names].sort());
      for (const p of declared) expect(p.required, `${key} {${p.name}}`).toBe(true);
    }
  });

  it('protected routes declare security with every credential form; public ones declare none', () => {
    const schemes = Object.keys(doc.components?.securitySchemes ?? {}).sort();
    // CONTRACT.md "Authentication": the five forms of spec §5.
    expect(schemes).toEqual(['basic', 'bearer', 'cookie', 'query', 'token']);
    const protectedOps = operationsOf(doc).filter(({ path }) => !PUBLIC.some((p) => p.test(path)));
    expect(protectedOps.length).toBeGreaterThanOrEqual(7);
    for (const { key, op, path } of operationsOf(doc)) {
      const isPublic = PUBLIC.some((p) => p.test(path));
      const security = op.security ?? [];
      if (isPublic) {
        // No credential needed: no requirement, or an explicit anonymous alternative.
        expect(security.length === 0 || security.some((alt) => Object.keys(alt).length === 0), key).toBe(true);
        continue;
      }
      expect(security.length, `${key} must declare security`).toBeGreaterThan(0);
      const used = [...new Set(security.flatMap((alt) => Object.keys(alt)))].sort();
      for (const name of used) expect(schemes, `${key}: unknown scheme ${name}`).toContain(name);
      expect(used, `${key}: all five credential forms work on every endpoint`).toEqual(schemes);
      expect(
        security.some((alt) => Object.keys(alt).length === 0),
        `${key} must not allow anonymous access`,
      ).toBe(false);
      expect(Object.keys(op.responses), `${key} documents its 401`).toContain('401');
    }
  });

  it('what the document says about authentication is what the server does', async () => {
    // Each documented operation, called without credentials (placeholder path values):
    // declared security → 401 with WWW-Authenticate; none → anything but 401.
    for (const { key, method, path, op } of operationsOf(doc)) {
      const url = path.replace(/\{[^}]+\}/g, 'placeholder');
      const r = await instance.request(url, { method, ...(method === 'POST' ? { json: {} } : {}) });
      if ((op.security ?? []).length > 0 && !(op.security ?? []).some((alt) => Object.keys(alt).length === 0)) {
        expect(r.status, `${key} → ${r.status} ${r.text}`).toBe(401);
        expect(r.headers.get('www-authenticate'), key).toBeTruthy();
      } else {
        expect(r.status, `${key} → ${r.status} ${r.text}`).not.toBe(401);
      }
      expect(r.status, `${key} → ${r.status} ${r.text}`).toBeLessThan(500);
    }
  });

  it('GET /metrics, outside the document, is refused without its token like a protected route', async () => {
    const jwt = await instance.jwtFor(ADMIN.username, ADMIN.password);
    for (const headers of [{}, { authorization: `Bearer ${jwt}` }] as Record<string, string>[]) {
      const r = await instance.request(SCRAPE_ROUTE, { headers });
      expect(r.status, r.text).toBe(401);
      expect(r.headers.get('www-authenticate')).toBeTruthy();
    }
    const ok = await instance.request(SCRAPE_ROUTE, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(ok.status).toBe(200);
  });

  it('GET /docs serves the Swagger UI, and every asset it references loads', async () => {
    const page = await fetch(`${instance.url}/docs`, { redirect: 'follow' });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    expect(html.toLowerCase()).toContain('swagger');
    expect(html).toMatch(/id="swagger-ui"/);

    const assets = [...html.matchAll(/<(?:script|link)\b[^>]*?\s(?:src|href)="([^"]+)"/g)].map(
      (m) => new URL(m[1] as string, page.url),
    );
    const scripts = assets.filter((u) => u.pathname.endsWith('.js'));
    expect(scripts.map((u) => u.pathname)).toEqual(
      expect.arrayContaining([expect.stringMatching(/swagger-ui-bundle\.js$/)]),
    );
    expect(assets.some((u) => u.pathname.endsWith('.css'))).toBe(true);
    for (const url of assets) {
      expect(url.origin, `${url} is served by the instance itself`).toBe(new URL(instance.url).origin);
      const r = await fetch(url);
      const body = Buffer.from(await r.arrayBuffer());
      expect(r.status, url.pathname).toBe(200);
      expect(body.length, url.pathname).toBeGreaterThan(0);
      if (url.pathname.endsWith('.js')) expect(r.headers.get('content-type'), url.pathname).toMatch(/javascript/);
      if (url.pathname.endsWith('.css')) expect(r.headers.get('content-type'), url.pathname).toMatch(/^text\/css/);
    }
    const bundle = await (await fetch(scripts.find((u) => u.pathname.endsWith('swagger-ui-bundle.js')) as URL)).text();
    expect(bundle.length).toBeGreaterThan(100_000);
    expect(bundle).toContain('SwaggerUIBundle');
  });

  it('GET /docs has a Content-Security-Policy: no inline script, no framing, nothing from elsewhere', async () => {
    for (const path of ['/docs', '/docs/']) {
      const page = await fetch(`${instance.url}${path}`);
      expect(page.status, path).toBe(200);
      const directives = (page.headers.get('content-security-policy') ?? '').split(/\s*;\s*/).filter(Boolean);
      expect(directives, path).toEqual(
        expect.arrayContaining([
          "default-src 'none'",
          "script-src 'self'",
          "style-src 'self'",
          "connect-src 'self'",
          "frame-ancestors 'none'",
          "base-uri 'none'",
        ]),
      );
      expect(
        directives.filter((d) => /unsafe-|https?:|\*/.test(d)),
        path,
      ).toEqual([]);
      // The page works under it: every script is a file of this origin, no inline script or
      // style, no event handler attribute.
      const html = await page.text();
      const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
      expect(scripts.length).toBeGreaterThan(0);
      for (const [, attributes, body] of scripts) {
        expect(attributes, path).toMatch(/\ssrc="[^"]+"/);
        expect(body?.trim(), path).toBe('');
      }
      expect(html, path).not.toMatch(/<style\b|\sstyle=|\son[a-z]+=/i);
    }
  });

  it('the document the UI loads is the API document', async () => {
    // swagger-initializer.js points the UI at `./json` relative to /docs/.
    const init = await fetch(`${instance.url}/docs/static/swagger-initializer.js`);
    expect(init.status).toBe(200);
    const script = await init.text();
    const target = /url:\s*resolveUrl\('([^']+)'\)/.exec(script)?.[1] ?? /url:\s*"([^"]+)"/.exec(script)?.[1];
    expect(target, 'the initializer names the document URL').toBeTruthy();
    const r = await fetch(new URL(target as string, `${instance.url}/docs/`));
    expect(r.status).toBe(200);
    const uiDoc = (await r.json()) as OpenApiDocument;
    expect(Object.keys(uiDoc.paths).sort()).toEqual(Object.keys(doc.paths).sort());
  });

  it("the UI shows the project's name, not the framework's logo", async () => {
    const html = await (await fetch(`${instance.url}/docs`)).text();
    expect(html).toMatch(/<title>Platform Core API<\/title>/);
    const script = await (await fetch(`${instance.url}/docs/static/swagger-initializer.js`)).text();
    // The initializer swaps the top bar's logo for the image it carries as a data: URL.
    const logo = /img\.src = 'data:image\/svg\+xml;base64,([A-Za-z0-9+/=]+)'/.exec(script)?.[1];
    expect(logo, 'the initializer replaces the logo').toBeTruthy();
    const svg = Buffer.from(logo as string, 'base64').toString('utf8');
    expect(svg).toContain('>Platform Core</text>');
    expect(svg.toLowerCase()).not.toContain('fastify');
  });

  it('the API-token scheme takes the bare token, as Swagger UI sends it (Authorization: Bearer)', async () => {
    const token = doc.components?.securitySchemes?.token as Record<string, string>;
    // An apiKey scheme in the Authorization header makes the UI send exactly what is pasted,
    // so the bare token failed; an http bearer scheme makes it send `Bearer <pasted value>`.
    expect(token).toMatchObject({ type: 'http', scheme: 'bearer' });
    const jwt = await instance.jwtFor(ADMIN.username, ADMIN.password);
    const created = await instance.request('/api/core/token/create/swagger-ui', {
      method: 'POST',
      headers: { authorization: `Bearer ${jwt}` },
    });
    expect(created.status, created.text).toBe(201);
    const value = created.body.data.item.value as string;
    const r = await instance.request('/api/core/token/user', { headers: { authorization: `Bearer ${value}` } });
    expect(r.status, r.text).toBe(200);
  });
});
