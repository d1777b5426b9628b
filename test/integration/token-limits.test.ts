// Tokens that expire (`expires_in_days`, 401 `token_expired` from the expiry instant,
// cached or not) and tokens with less power (`roles`: a subset of the owner's roles, intersected
// with the owner's current roles on every request), over the API and the CLI, on both databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeJwt } from 'jose';
import { testDatabaseKinds, dropTestDatabase } from '../support/databases.js';
import { startAccountsFixture, type AccountsFixture } from '../support/accounts-fixture.js';
import { runCli, said } from '../support/cli-child.js';
import { isoMicros } from '../../src/lib/time.js';

const DAY_MS = 86_400_000;
const TOKEN_VALUE = /^pct_[A-Za-z0-9_-]{38}$/;
/** A route any sys_administrator may use, and one that needs an app role (the fixture's `demo`). */
const BROWSE = '/api/core/token/browse';
const DEMO_SRS = '/api/srs/1?app_name=demo';

const bearer = (value: string) => ({ Authorization: `Bearer ${value}` });

describe.each(testDatabaseKinds())('token limits on %s', (kind) => {
  let f: AccountsFixture;
  let ivyJwt: string;

  beforeAll(async () => {
    // A long cache period: an expiry or role change that waited for the cache would show.
    f = await startAccountsFixture(kind, { Settings__AuthCacheSeconds: '60' });
    ivyJwt = await f.user('ivy', { roles: ['sys_tokens', 'sys_administrator', 'app_demo'] });
  });
  afterAll(async () => {
    await f?.inst.stop();
    if (f) await dropTestDatabase(f.db);
  });

  const create = (jwt: string, path: string, json?: unknown) => f.as(jwt, 'POST', path, json);
  const get = (value: string, path: string) => f.inst.request(path, { headers: bearer(value) });
  /** Moves a token's expiry in the database (days are too long to wait for). */
  const expireAt = async (username: string, name: string, iso: string) => {
    const user = await f.inst.services.database.db
      .selectFrom('users')
      .select('id')
      .where('username', '=', username)
      .executeTakeFirstOrThrow();
    await f.inst.services.database.db
      .updateTable('tokens')
      .set({ expires_at: iso })
      .where('user_id', '=', user.id)
      .where('name', '=', name)
      .execute();
  };

  it('shows token_expires_at and roles in the create answer and the listings, keeping every old field', async () => {
    const before = Date.now();
    const r = await create(ivyJwt, '/api/core/token/create/week?expires_in_days=7');
    expect(r.status, r.text).toBe(201);
    const item = r.body.data.item;
    expect(item.value).toMatch(TOKEN_VALUE);
    expect(Object.keys(item).sort()).toEqual(
      [
        'username',
        'userid',
        'loginprovider',
        'name',
        'value',
        'token_created_at',
        'token_used_at',
        'token_created_by',
        'token_expires_at',
        'roles',
      ].sort(),
    );
    // UTC without zone, seven days after creation.
    expect(item.token_expires_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}$/);
    const expires = Date.parse(`${item.token_expires_at}Z`);
    expect(expires).toBe(Date.parse(`${item.token_created_at}Z`) + 7 * DAY_MS);
    expect(expires).toBeGreaterThanOrEqual(before + 7 * DAY_MS - 1);
    expect(item.roles).toBeNull();

    const plain = (await create(ivyJwt, '/api/core/token/create/forever')).body.data.item;
    expect(plain.token_expires_at).toBeNull();
    expect(plain.roles).toBeNull();

    const own = await f.as(ivyJwt, 'GET', '/api/core/token/user');
    const listed = own.body.data.items.find((t: any) => t.name === 'week');
    expect(listed).toMatchObject({ value: null, token_expires_at: item.token_expires_at, roles: null });
    const all = await f.as(f.adminJwt, 'GET', BROWSE);
    expect(all.body.data.items.find((t: any) => t.name === 'week' && t.username === 'ivy')).toMatchObject({
      token_expires_at: item.token_expires_at,
    });
  });

  it('takes the limits from the JSON body too, the query winning', async () => {
    const r = await create(ivyJwt, '/api/core/token/create/bodied', { expires_in_days: 2, roles: ['app_demo'] });
    expect(r.status, r.text).toBe(201);
    const item = r.body.data.item;
    expect(Date.parse(`${item.token_expires_at}Z`) - Date.parse(`${item.token_created_at}Z`)).toBe(2 * DAY_MS);
    expect(item.roles).toEqual(['app_demo']);
    const both = await create(ivyJwt, '/api/core/token/create/both?expires_in_days=3&roles=sys_tokens,app_demo', {
      expires_in_days: 9,
      roles: ['sys_administrator'],
    });
    expect(both.status, both.text).toBe(201);
    const b = both.body.data.item;
    expect(Date.parse(`${b.token_expires_at}Z`) - Date.parse(`${b.token_created_at}Z`)).toBe(3 * DAY_MS);
    expect(b.roles).toEqual(['app_demo', 'sys_tokens']);
    // An administrator gives another user a scoped token.
    await f.user('jon', { roles: ['app_demo', 'app_other'] });
    const forJon = await create(f.adminJwt, '/api/core/token/create/report/jon', { roles: ['app_other'] });
    expect(forJon.status, forJon.text).toBe(201);
    expect(forJon.body.data.item.roles).toEqual(['app_other']);
  });

  it('answers 400 for a bad expires_in_days and for roles the owner does not hold, naming them', async () => {
    for (const q of ['0', '-1', '3651', '1.5', 'soon']) {
      const r = await create(ivyJwt, `/api/core/token/create/bad?expires_in_days=${q}`);
      expect(r.status, `${q}: ${r.text}`).toBe(400);
      expect(r.body.success).toBe(false);
    }
    for (const body of [{ expires_in_days: '7' }, { expires_in_days: 0 }, { roles: 'app_demo' }, { other: 1 }]) {
      const r = await create(ivyJwt, '/api/core/token/create/bad', body);
      expect(r.status, `${JSON.stringify(body)}: ${r.text}`).toBe(400);
    }
    const r = await create(ivyJwt, '/api/core/token/create/bad', { roles: ['app_demo', 'app_other', 'made_up'] });
    expect(r.status, r.text).toBe(400);
    expect(r.body.data.code).toBe('role_not_held');
    expect(r.body.message).toContain('app_other, made_up');
    expect(r.body.data.details.map((d: any) => d.message).join(' ')).toContain('made_up');
    const jon = await create(f.adminJwt, '/api/core/token/create/bad/jon?roles=sys_administrator');
    expect(jon.status, jon.text).toBe(400);
    expect(jon.body.message).toContain('sys_administrator');
    // Nothing was created.
    const names = (await f.as(ivyJwt, 'GET', '/api/core/token/user')).body.data.items.map((t: any) => t.name);
    expect(names).not.toContain('bad');
  });

  it('refuses an expired token with 401 token_expired at its expiry, although its lookup is cached', async () => {
    const value = (await create(ivyJwt, '/api/core/token/create/short?expires_in_days=1')).body.data.item.value;
    const expiry = Date.now() + 1500;
    await expireAt('ivy', 'short', isoMicros(expiry * 1000));
    expect((await get(value, BROWSE)).status).toBe(200); // cached from here on
    expect((await get(value, BROWSE)).status).toBe(200);
    await new Promise((r) => setTimeout(r, expiry - Date.now() + 50));
    const r = await get(value, BROWSE);
    expect(r.status, r.text).toBe(401);
    expect(r.body.data.code).toBe('token_expired');
    expect(r.headers.get('www-authenticate')).toBeTruthy();
    // Every credential form, and the login with it.
    const basic = `Basic ${Buffer.from(`api:${value}`).toString('base64')}`;
    expect((await f.inst.request(BROWSE, { headers: { Authorization: basic } })).body.data.code).toBe('token_expired');
    expect((await f.inst.request(`${BROWSE}?ptoken=api:${value}`)).body.data.code).toBe('token_expired');
    const login = await f.inst.login('api', value);
    expect(login.status).toBe(401);
    expect(login.body.data.code).toBe('token_expired');
  });

  it('ends a session obtained with an expiring token no later than the token', async () => {
    const value = (await create(ivyJwt, '/api/core/token/create/soon?expires_in_days=1')).body.data.item.value;
    const expiry = Date.now() + 3 * 3600_000;
    await expireAt('ivy', 'soon', isoMicros(expiry * 1000));
    const login = await f.inst.login('api', value);
    expect(login.status, login.text).toBe(200);
    expect(decodeJwt(login.body.data.token).exp).toBe(Math.floor(expiry / 1000));
    expect(login.body.data.expires_in).toBeLessThanOrEqual(3 * 3600);
  });

  it("limits a scoped token to its roles, intersected with the owner's current roles", async () => {
    const demoOnly = (await create(ivyJwt, '/api/core/token/create/demo-only?roles=app_demo')).body.data.item.value;
    const admin = (await create(ivyJwt, '/api/core/token/create/admin?roles=sys_administrator&roles=app_demo')).body
      .data.item.value;
    const full = (await create(ivyJwt, '/api/core/token/create/full')).body.data.item.value;
    // The demo-only token may use the app (an SRS the app lacks: 404, not 403) but not administer.
    expect((await get(demoOnly, DEMO_SRS)).body.data.code).toBe('srs_not_found');
    const refused = await get(demoOnly, BROWSE);
    expect(refused.status).toBe(403);
    expect((await get(admin, BROWSE)).status).toBe(200);
    expect((await get(full, BROWSE)).status).toBe(200);
    // A JWT obtained with the scoped token keeps its scope.
    const session = (await f.inst.login('api', demoOnly)).body.data.token;
    expect((await get(session, BROWSE)).status).toBe(403);
    expect((await get(session, DEMO_SRS)).body.data.code).toBe('srs_not_found');

    // A role revoked from the owner is gone from the scoped token at once (its lookup is cached).
    const revoke = await f.as(f.adminJwt, 'POST', '/api/core/account/role/revoke/ivy/app_demo');
    expect(revoke.status, revoke.text).toBe(200);
    expect((await get(admin, DEMO_SRS)).body.data.code).toBe('app_not_allowed');
    expect((await get(demoOnly, DEMO_SRS)).body.data.code).toBe('app_not_allowed');
    expect((await get(admin, BROWSE)).status).toBe(200);
    // Granted back, it returns to the tokens whose scope holds it, not to others.
    await f.as(f.adminJwt, 'POST', '/api/core/account/role/grant/ivy/app_demo');
    expect((await get(demoOnly, DEMO_SRS)).body.data.code).toBe('srs_not_found');
  });

  it('lets a scoped credential create only tokens within its own scope', async () => {
    const scoped = (await create(ivyJwt, '/api/core/token/create/maker?roles=sys_tokens')).body.data.item.value;
    const made = await f.inst.request('/api/core/token/create/made', { method: 'POST', headers: bearer(scoped) });
    expect(made.status, made.text).toBe(201);
    expect(made.body.data.item.roles).toEqual(['sys_tokens']);
    const wider = await f.inst.request('/api/core/token/create/wider?roles=sys_administrator', {
      method: 'POST',
      headers: bearer(scoped),
    });
    expect(wider.status, wider.text).toBe(400);
    expect(wider.body.data.code).toBe('role_not_held');
  });

  it('CLI: token create --expires-in-days --role, and token prune', async () => {
    const env = { DATA_DIR: f.db.dataDir, DATABASE_URL: f.db.databaseUrl, APPS_DIR: f.appsDir };
    const made = await runCli(
      ['token', 'create', 'cli-scoped', '--user', 'ivy', '--expires-in-days', '30', '--role', 'app_demo'],
      { env },
    );
    expect(made.code, said(made)).toBe(0);
    expect(made.stdout.trim()).toMatch(TOKEN_VALUE);
    const listed = (await f.as(ivyJwt, 'GET', '/api/core/token/user')).body.data.items.find(
      (t: any) => t.name === 'cli-scoped',
    );
    expect(listed.roles).toEqual(['app_demo']);
    expect(Date.parse(`${listed.token_expires_at}Z`) - Date.parse(`${listed.token_created_at}Z`)).toBe(30 * DAY_MS);
    expect((await get(made.stdout.trim(), BROWSE)).status).toBe(403);

    for (const [args, message] of [
      [['--expires-in-days', '0'], /--expires-in-days/],
      [['--expires-in-days', 'x'], /--expires-in-days/],
      [['--role', 'app_other'], /not held: app_other/],
    ] as const) {
      const r = await runCli(['token', 'create', 'cli-bad', '--user', 'ivy', ...args], { env });
      expect(r.code, said(r)).toBe(2);
      expect(r.stderr).toMatch(message);
    }

    // Two expired tokens go, the others stay; the server forgets them at once.
    const doomed = (await create(ivyJwt, '/api/core/token/create/doomed?expires_in_days=1')).body.data.item.value;
    expect((await get(doomed, BROWSE)).status).toBe(200);
    await expireAt('ivy', 'doomed', isoMicros((Date.now() - 1000) * 1000));
    await expireAt('ivy', 'short', isoMicros((Date.now() - 1000) * 1000));
    const pruned = await runCli(['token', 'prune'], { env });
    expect(pruned.code, said(pruned)).toBe(0);
    expect(pruned.stdout.trim()).toBe('deleted 2 expired tokens');
    const names = (await f.as(ivyJwt, 'GET', '/api/core/token/user')).body.data.items.map((t: any) => t.name);
    expect(names).not.toContain('doomed');
    expect(names).toContain('week');
    expect(names).toContain('cli-scoped');
    const again = await runCli(['token', 'prune'], { env });
    expect(again.stdout.trim()).toBe('deleted 0 expired tokens');
    const help = await runCli(['help'], { env });
    expect(help.stdout).toContain('token prune');
    expect(help.stdout).toContain('--expires-in-days');
  });
});
