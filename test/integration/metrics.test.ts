// GET /metrics parses with a Prometheus text parser and its counters move
// with the requests the test makes: requests by route pattern, authentication and login
// outcomes, lockouts, rate-limit rejections, renders and SRS commands. On the public port only
// with Settings:MetricsToken (the API's own credentials do not open it); METRICS_PORT serves it
// on a listener of its own; with neither there is no /metrics.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/config.js';
import { startServer } from '../../src/server.js';
import { createTestDatabase, dropTestDatabase, testDatabaseKinds, type TestDatabase } from '../support/databases.js';
import { ADMIN, startInstance, type Instance } from '../support/instance.js';
import { scrape, Scrape } from '../support/prometheus.js';

const TOKEN = 'metrics-token-for-the-tests-0123456789';
const BEARER = { authorization: `Bearer ${TOKEN}` };
const P = 'platform_core_';

/** Creates an account as the administrator. */
async function createUser(inst: Instance, adminJwt: string, username: string, password: string): Promise<void> {
  const r = await inst.request('/api/core/account/create', {
    method: 'POST',
    headers: { authorization: `Bearer ${adminJwt}` },
    json: { username, password },
  });
  expect(r.status, r.text).toBe(201);
}

describe('GET /metrics on the public port (SQLite, Settings:MetricsToken)', () => {
  let db: TestDatabase;
  let inst: Instance;
  let adminJwt: string;
  const metrics = () => scrape(`${inst.url}/metrics`, BEARER);

  beforeAll(async () => {
    db = await createTestDatabase('sqlite');
    inst = await startInstance(db, {
      Settings__MetricsToken: TOKEN,
      Settings__LockoutMaxFailedAttempts: '3',
      Settings__LoginRateLimitPerUser: '4',
    });
    adminJwt = await inst.jwtFor(ADMIN.username, ADMIN.password);
  });
  afterAll(async () => {
    await inst?.stop();
    if (db) await dropTestDatabase(db);
  });

  it('is 401 in the envelope without the token, with a wrong one, and with the API’s own credentials', async () => {
    const apiToken = await inst.request('/api/core/token/create/metrics-probe', {
      method: 'POST',
      headers: { authorization: `Bearer ${adminJwt}` },
    });
    expect(apiToken.status, apiToken.text).toBe(201);
    const cases: Array<[string, RequestInit, string]> = [
      ['no credential', {}, 'authentication_required'],
      ['a wrong token', { headers: { authorization: `Bearer ${TOKEN}x` } }, 'invalid_token'],
      ['a prefix of the token', { headers: { authorization: `Bearer ${TOKEN.slice(0, -1)}` } }, 'invalid_token'],
      ['the token under another scheme', { headers: { authorization: `Token ${TOKEN}` } }, 'invalid_token'],
      ['the administrator’s JWT', { headers: { authorization: `Bearer ${adminJwt}` } }, 'invalid_token'],
      [
        'the administrator’s API token',
        { headers: { authorization: `Token ${apiToken.body.data.item.value}` } },
        'invalid_token',
      ],
      ['the JWT as a cookie', { headers: { cookie: `ptoken=${adminJwt}` } }, 'authentication_required'],
    ];
    for (const [label, init, code] of cases) {
      const r = await inst.request('/metrics', init);
      expect(r.status, `${label}: ${r.text}`).toBe(401);
      expect(r.body, label).toMatchObject({ success: false, data: { code } });
      expect(r.headers.get('www-authenticate'), label).toBeTruthy();
      expect(r.text, label).not.toContain(`${P}http_requests_total`);
    }
    for (const query of [`ptoken=${adminJwt}`, `ptoken=${TOKEN}`]) {
      const r = await inst.request(`/metrics?${query}`);
      expect(r.status, r.text).toBe(401);
    }
  });

  it('answers the token with the Prometheus text format, process metrics included', async () => {
    const res = await fetch(`${inst.url}/metrics`, { headers: BEARER });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    // The scheme is case-insensitive, as for every Authorization header.
    expect((await fetch(`${inst.url}/metrics`, { headers: { authorization: `bearer ${TOKEN}` } })).status).toBe(200);
    const s = new Scrape(await res.text());
    const types = Object.fromEntries(s.families.map((f) => [f.name, f.type]));
    expect(types).toMatchObject({
      [`${P}http_requests_total`]: 'COUNTER',
      [`${P}http_request_duration_seconds`]: 'HISTOGRAM',
      [`${P}auth_outcomes_total`]: 'COUNTER',
      [`${P}logins_total`]: 'COUNTER',
      [`${P}lockouts_total`]: 'COUNTER',
      [`${P}rate_limit_rejections_total`]: 'COUNTER',
      [`${P}render_duration_seconds`]: 'HISTOGRAM',
      [`${P}srs_commands_duration_seconds`]: 'HISTOGRAM',
      [`${P}render_queue_length`]: 'GAUGE',
      [`${P}render_workers_busy`]: 'GAUGE',
      [`${P}render_worker_restarts_total`]: 'COUNTER',
      [`${P}db_pool_connections`]: 'GAUGE',
      [`${P}nodejs_eventloop_lag_seconds`]: 'GAUGE',
      [`${P}process_resident_memory_bytes`]: 'GAUGE',
      [`${P}nodejs_heap_size_used_bytes`]: 'GAUGE',
    });
    for (const f of s.families) expect(f.name.startsWith(P), f.name).toBe(true);
    expect(s.value(`${P}render_queue_length`)).toBe(0);
    expect(s.value(`${P}process_resident_memory_bytes`)).toBeGreaterThan(1_000_000);
    // SQLite has no connection pool: the family is there, without series.
    expect(s.family(`${P}db_pool_connections`)?.metrics).toEqual([]);
  });

  it('counts each request once under its route pattern, never its URL', async () => {
    const before = await metrics();
    for (let i = 0; i < 7; i++) expect((await inst.request('/healthz')).status).toBe(200);
    const auth = { authorization: `Bearer ${adminJwt}` };
    for (const name of ['alpha', 'beta', 'gamma'])
      expect((await inst.request(`/api/core/account/profile/${name}-nobody`, { headers: auth })).status).toBe(404);
    expect((await inst.request('/no/such/route-xyz?ptoken=secret-xyz')).status).toBe(404);
    const after = await metrics();

    const healthz = { route: '/healthz', method: 'GET', status: '200' };
    expect(after.value(`${P}http_requests_total`, healthz) - before.value(`${P}http_requests_total`, healthz)).toBe(7);
    expect(
      after.count(`${P}http_request_duration_seconds`, healthz) -
        before.count(`${P}http_request_duration_seconds`, healthz),
    ).toBe(7);
    // The histogram's buckets are cumulative, and +Inf holds every observation.
    const bounds = after
      .samplesOf(`${P}http_request_duration_seconds_bucket`, healthz)
      .map((m) => [m.labels?.le === '+Inf' ? Infinity : Number(m.labels?.le), Number(m.value)] as const)
      .sort((x, y) => x[0] - y[0]);
    expect(bounds.length).toBeGreaterThan(5);
    for (let i = 1; i < bounds.length; i++) expect(bounds[i]![1]).toBeGreaterThanOrEqual(bounds[i - 1]![1]);
    expect(bounds.at(-1)).toEqual([Infinity, after.count(`${P}http_request_duration_seconds`, healthz)]);
    expect(after.sum(`${P}http_request_duration_seconds`, healthz)).toBeGreaterThan(0);
    const profile = { route: '/api/core/account/profile/:username', method: 'GET', status: '404' };
    expect(after.value(`${P}http_requests_total`, profile) - before.value(`${P}http_requests_total`, profile)).toBe(3);
    const unmatched = { route: 'unmatched', method: 'GET', status: '404' };
    expect(after.value(`${P}http_requests_total`, unmatched) - before.value(`${P}http_requests_total`, unmatched)).toBe(
      1,
    );
    // No value of a request's URL becomes a label.
    expect(after.text).not.toMatch(/nobody|route-xyz|secret-xyz/);
  });

  it('counts authentication outcomes by credential kind, where it was presented, and reason', async () => {
    const created = await inst.request('/api/core/token/create/metrics-revoked', {
      method: 'POST',
      headers: { authorization: `Bearer ${adminJwt}` },
    });
    expect(created.status, created.text).toBe(201);
    const revoked = created.body.data.item.value as string;
    expect(
      (
        await inst.request(`/api/core/token/delete/metrics-revoked/${ADMIN.username}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${adminJwt}` },
        })
      ).status,
    ).toBe(200);

    const before = await metrics();
    const call = (init: RequestInit, query = '') => inst.request(`/api/core/token/user${query}`, init);
    expect((await call({ headers: { authorization: `Bearer ${adminJwt}` } })).status).toBe(200);
    expect((await call({ headers: { cookie: `ptoken=${adminJwt}` } })).status).toBe(200);
    expect((await call({ headers: { authorization: `Token ${revoked}` } })).status).toBe(401);
    expect((await call({ headers: { authorization: `Token ${revoked}` } })).status).toBe(401);
    expect((await call({ headers: { authorization: 'Bearer not-a-credential' } })).status).toBe(401);
    expect((await call({}, '?ptoken=aaa.bbb.ccc')).status).toBe(401);
    expect((await call({})).status).toBe(401);
    const after = await metrics();

    const delta = (labels: Record<string, string>) =>
      after.value(`${P}auth_outcomes_total`, labels) - before.value(`${P}auth_outcomes_total`, labels);
    // The two scrapes themselves use no API credential: only these calls count.
    expect(delta({ kind: 'jwt', source: 'header', reason: 'ok' })).toBe(1);
    expect(delta({ kind: 'jwt', source: 'cookie', reason: 'ok' })).toBe(1);
    expect(delta({ kind: 'token', source: 'header', reason: 'invalid_token' })).toBe(2);
    expect(delta({ kind: 'malformed', source: 'header', reason: 'invalid_token' })).toBe(1);
    expect(delta({ kind: 'jwt', source: 'query', reason: 'invalid_token' })).toBe(1);
    expect(delta({ kind: 'none', source: 'none', reason: 'missing' })).toBe(1);
  });

  it('counts login outcomes, a lockout and a rate-limit rejection', async () => {
    await createUser(inst, adminJwt, 'lena', 'yran-password-1');
    await createUser(inst, adminJwt, 'rita', 'evgn-password-1');
    const before = await metrics();
    // Three wrong passwords lock lena (LockoutMaxFailedAttempts 3); the fourth attempt is refused unseen.
    for (let i = 0; i < 3; i++) expect((await inst.login('lena', `wrong-${i}`)).status).toBe(401);
    const locked = await inst.login('lena', 'yran-password-1');
    expect(locked.body.data.code).toBe('account_locked');
    // rita logs in four times (LoginRateLimitPerUser 4); the fifth is refused with 429.
    for (let i = 0; i < 4; i++) expect((await inst.login('rita', 'evgn-password-1')).status).toBe(200);
    expect((await inst.login('rita', 'evgn-password-1')).status).toBe(429);
    const after = await metrics();

    const delta = (family: string, labels: Record<string, string>) =>
      after.value(`${P}${family}`, labels) - before.value(`${P}${family}`, labels);
    expect(delta('logins_total', { kind: 'password', outcome: 'invalid_credentials' })).toBe(3);
    expect(delta('logins_total', { kind: 'password', outcome: 'account_locked' })).toBe(1);
    expect(delta('logins_total', { kind: 'password', outcome: 'success' })).toBe(4);
    expect(delta('logins_total', { kind: 'password', outcome: 'rate_limited' })).toBe(1);
    expect(delta('lockouts_total', { subject: 'account' })).toBe(1);
    expect(delta('lockouts_total', { subject: 'unknown_username' })).toBe(0);
    expect(delta('rate_limit_rejections_total', { limit: 'login' })).toBe(1);
    const loginRoute = { route: '/api/core/account/login', method: 'POST', status: '429' };
    expect(delta('http_requests_total', loginRoute)).toBe(1);
  });

  it('times a render and its SQL commands by app, SRS and template', async () => {
    const labels = { app: 'demo', srs: '1', template: 'invoice' };
    const before = await metrics();
    const auth = { authorization: `Bearer ${adminJwt}` };
    const r = await inst.request('/api/srs/1/invoice.frx.html?app_name=demo&order_id=1004', { headers: auth });
    expect(r.status, r.text.slice(0, 300)).toBe(200);
    const data = await inst.request('/api/srs/1/data.json?app_name=demo&order_id=1004', { headers: auth });
    expect(data.status, data.text.slice(0, 300)).toBe(200);
    const after = await metrics();

    const render = { ...labels, format: 'html', outcome: 'ok' };
    expect(
      after.count(`${P}render_duration_seconds`, render) - before.count(`${P}render_duration_seconds`, render),
    ).toBe(1);
    const commands = (template: string) => ({ ...labels, template, outcome: 'ok' });
    for (const [template, n] of [
      ['invoice', 1],
      ['', 1],
    ] as const)
      expect(
        after.count(`${P}srs_commands_duration_seconds`, commands(template)) -
          before.count(`${P}srs_commands_duration_seconds`, commands(template)),
        `template "${template}"`,
      ).toBe(n);
    expect(after.sum(`${P}render_duration_seconds`, render)).toBeGreaterThan(0);
    // Its buckets are cumulative up to +Inf, which holds every observation.
    expect(after.value(`${P}render_duration_seconds_bucket`, { ...render, le: '+Inf' })).toBe(
      after.count(`${P}render_duration_seconds`, render),
    );
    expect(after.value(`${P}render_queue_length`)).toBe(0);
  });
});

describe('METRICS_PORT, and neither setting', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase('sqlite');
  });
  afterAll(async () => {
    if (db) await dropTestDatabase(db);
  });

  it('serves /metrics without credentials on its own listener, and not on the public port', async () => {
    const config = loadConfig(
      {
        DATA_DIR: db.dataDir,
        PORT: '0',
        HOST: '127.0.0.1',
        METRICS_PORT: '0',
        PLATFORM_ADMIN_USERNAME: ADMIN.username,
        PLATFORM_ADMIN_PASSWORD: ADMIN.password,
        Settings__LogLevel: 'silent',
      },
      db.dataDir,
    );
    expect(config.metricsHost).toBe('127.0.0.1');
    const server = await startServer(config);
    try {
      expect(server.metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(server.metricsUrl).not.toBe(server.url);
      const before = await scrape(`${server.metricsUrl}/metrics`);
      for (let i = 0; i < 5; i++) expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
      const after = await scrape(`${server.metricsUrl}/metrics`);
      const readyz = { route: '/readyz', method: 'GET', status: '200' };
      expect(after.value(`${P}http_requests_total`, readyz) - before.value(`${P}http_requests_total`, readyz)).toBe(5);
      expect(after.family(`${P}nodejs_eventloop_lag_seconds`)).toBeDefined();

      // The public port has no /metrics without a token, whatever is presented.
      const jwt = (await (
        await fetch(`${server.url}/api/core/account/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ username: ADMIN.username, password: ADMIN.password }),
        })
      ).json()) as { data: { token: string } };
      for (const headers of [{}, { authorization: `Bearer ${jwt.data.token}` }] as Record<string, string>[]) {
        const r = await fetch(`${server.url}/metrics`, { headers });
        expect(r.status).toBe(404);
        expect(((await r.json()) as { data: { code: string } }).data.code).toBe('route_not_found');
      }
      // The metrics listener serves nothing else, and answers in the envelope.
      const other = await fetch(`${server.metricsUrl}/api/core/system/ping`);
      expect(other.status).toBe(404);
      expect(((await other.json()) as { success: boolean }).success).toBe(false);
    } finally {
      await server.stop();
    }
    await expect(fetch(`${server.metricsUrl}/metrics`)).rejects.toThrow();
  });

  it('has no /metrics at all with neither a token nor a port', async () => {
    const inst = await startInstance(db);
    try {
      const r = await inst.request('/metrics', { headers: BEARER });
      expect(r.status).toBe(404);
      expect(r.body.data.code).toBe('route_not_found');
    } finally {
      await inst.stop();
    }
  });

  it('refuses a short token and METRICS_PORT equal to PORT', () => {
    expect(() => loadConfig({ Settings__MetricsToken: 'short' }, db.dataDir)).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: '9100', METRICS_PORT: '9100' }, db.dataDir)).toThrow(/METRICS_PORT/);
    expect(() => loadConfig({ METRICS_PORT: 'x' }, db.dataDir)).toThrow(/METRICS_PORT/);
    expect(loadConfig({ PORT: '9100', METRICS_PORT: '9101', HOST: '10.0.0.1' }, db.dataDir)).toMatchObject({
      metricsPort: 9101,
      metricsHost: '10.0.0.1',
    });
  });
});

describe.each(testDatabaseKinds().filter((k) => k === 'postgres'))('database pool gauges on %s', (kind) => {
  let db: TestDatabase;
  let inst: Instance;

  beforeAll(async () => {
    db = await createTestDatabase(kind);
    inst = await startInstance(db, { Settings__MetricsToken: TOKEN });
  });
  afterAll(async () => {
    await inst?.stop();
    if (db) await dropTestDatabase(db);
  });

  it('reports the platform’s and the reports’ connection pools', async () => {
    const jwt = await inst.jwtFor(ADMIN.username, ADMIN.password);
    const r = await inst.request('/api/srs/1/data.json?app_name=demo&order_id=1004', {
      headers: { authorization: `Bearer ${jwt}` },
    });
    expect(r.status, r.text.slice(0, 300)).toBe(200);
    const s = await scrape(`${inst.url}/metrics`, BEARER);
    const gauge = (pool: string, state: string) => s.value(`${P}db_pool_connections`, { pool, state });
    for (const pool of ['platform', 'reports']) {
      expect(s.sample(`${P}db_pool_connections`, { pool, state: 'total' }), pool).toBeDefined();
      // Both pools have served a query, and keep their connection idle between requests.
      expect(gauge(pool, 'total'), pool).toBeGreaterThanOrEqual(1);
      expect(gauge(pool, 'idle'), pool).toBeLessThanOrEqual(gauge(pool, 'total'));
      expect(gauge(pool, 'waiting'), pool).toBe(0);
    }
    // A connection of the platform's pool held by a caller is counted, but not as idle.
    await inst.services.database.db.connection().execute(async () => {
      const held = await scrape(`${inst.url}/metrics`, BEARER);
      const idle = held.value(`${P}db_pool_connections`, { pool: 'platform', state: 'idle' });
      const total = held.value(`${P}db_pool_connections`, { pool: 'platform', state: 'total' });
      expect(total - idle).toBeGreaterThanOrEqual(1);
    });
  });
});
