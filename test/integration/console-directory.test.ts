// What the admin console needs beyond the account list: the roles that may be granted
// (GET /api/core/roles), a team's members (GET /api/core/team/members/{team_short}) and the
// instance's facts for the System screen (GET /api/core/system/instance), on both databases.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropTestDatabase, testDatabaseKinds } from '../support/databases.js';
import { startAccountsFixture, type AccountsFixture } from '../support/accounts-fixture.js';
import { ADMIN, passwordFor } from '../support/instance.js';
import { VERSION } from '../../src/lib/version.js';

// Names lab_auditor twice and app_demo (an app role, listed once, as an app role).
const DEFINITION = `<srs label="Audit">
  <def>
    <itm model="command" name="rows" acl="lab_auditor,app_demo">SELECT 1 AS n</itm>
    <itm model="command" name="more" acl="lab_auditor">SELECT 2 AS n</itm>
  </def>
</srs>`;

describe.each(testDatabaseKinds())('console directory endpoints on %s', (kind) => {
  let f: AccountsFixture;
  let plainJwt: string;

  beforeAll(async () => {
    f = await startAccountsFixture(kind);
    mkdirSync(join(f.appsDir, 'other', 'srs'), { recursive: true });
    writeFileSync(join(f.appsDir, 'other', 'srs', '1-audit.xml'), DEFINITION);
    plainJwt = await f.user('plain', { roles: ['sys_tokens'] });
  });
  afterAll(async () => {
    await f?.inst.stop();
    if (f) await dropTestDatabase(f.db);
  });

  it('GET /api/core/roles lists exactly the grantable roles, each with its kind and a description', async () => {
    const r = await f.as(f.adminJwt, 'GET', '/api/core/roles');
    expect(r.status, r.text).toBe(200);
    const items = r.body.data.items as Array<{ name: string; kind: string; description: string }>;
    expect(items.map((i) => [i.name, i.kind])).toEqual([
      ['sys_administrator', 'system'],
      ['sys_tokens', 'system'],
      ['srs_administrator', 'system'],
      ['app_administrator', 'system'],
      ['app_demo', 'app'],
      ['app_other', 'app'],
      ['lab_auditor', 'acl'],
    ]);
    for (const i of items) {
      expect(Object.keys(i).sort()).toEqual(['description', 'kind', 'name']);
      expect(i.description.length).toBeGreaterThan(10);
      expect(i.description).not.toContain('\n');
    }
    expect(r.body.message).toBe(`${items.length} roles`);
    // The list is what grant accepts: each listed role can be granted, an unlisted one cannot.
    for (const { name } of items)
      expect((await f.as(f.adminJwt, 'POST', `/api/core/account/role/grant/plain/${name}`)).status, name).toBe(200);
    expect((await f.as(f.adminJwt, 'POST', '/api/core/account/role/grant/plain/lab_other')).status).toBe(400);
    for (const { name } of items) await f.as(f.adminJwt, 'POST', `/api/core/account/role/revoke/plain/${name}`);
    await f.as(f.adminJwt, 'POST', '/api/core/account/role/grant/plain/sys_tokens');
  });

  it('GET /api/core/team/members/{team_short}: members by username, level, primary team, names', async () => {
    await f.user('zoe', { teams: ['COM'], firstName: 'Zoe', lastName: 'Zimmer' });
    await f.user('Adam', { firstName: 'Adam', lastName: 'Ant' });
    expect(
      (await f.as(f.adminJwt, 'POST', '/api/core/team/create', { team_short: 'LAB', team_name: 'Lab' })).status,
    ).toBe(201);
    await f.as(f.adminJwt, 'POST', '/api/core/team/member/add/LAB/zoe', { teamuser_lvl: 'lead' });
    await f.as(f.adminJwt, 'POST', '/api/core/team/member/add/LAB/Adam');
    // LAB becomes Adam's primary team.
    const adamLab = (await f.as(f.adminJwt, 'GET', '/api/core/team/browse')).body.data.items.find(
      (t: { team_short: string }) => t.team_short === 'LAB',
    );
    expect(
      (
        await f.as(f.adminJwt, 'POST', '/api/core/account/profile-update', {
          username: 'Adam',
          team_id: adamLab.team_id,
        })
      ).status,
    ).toBe(200);

    const r = await f.as(f.adminJwt, 'GET', '/api/core/team/members/LAB');
    expect(r.status, r.text).toBe(200);
    expect(r.body.data.team).toMatchObject({ team_short: 'LAB', team_name: 'Lab', team_type: 'internal', members: 2 });
    expect(r.body.data.items).toEqual([
      { username: 'Adam', teamuser_lvl: null, primary: true, user_first_name: 'Adam', user_last_name: 'Ant' },
      { username: 'zoe', teamuser_lvl: 'lead', primary: false, user_first_name: 'Zoe', user_last_name: 'Zimmer' },
    ]);
    expect(r.body.message).toBe('2 members');

    const com = await f.as(f.adminJwt, 'GET', '/api/core/team/members/COM');
    const names = com.body.data.items.map((m: { username: string }) => m.username);
    expect(names).toEqual(expect.arrayContaining([ADMIN.username, 'plain', 'zoe', 'Adam']));
    expect(com.body.data.items.find((m: { username: string }) => m.username === 'Adam').primary).toBe(false);
    expect(com.body.data.items.find((m: { username: string }) => m.username === 'zoe').primary).toBe(true);

    const unknown = await f.as(f.adminJwt, 'GET', '/api/core/team/members/NOPE');
    expect(unknown.status).toBe(404);
    expect(unknown.body.data.code).toBe('team_not_found');
    expect((await f.as(f.adminJwt, 'GET', '/api/core/team/members/a%20b')).status).toBe(400);
  });

  it('GET /api/core/system/instance: version, database kind, apps, start time, pools; no secret or path', async () => {
    const before = Date.now();
    const r = await f.as(f.adminJwt, 'GET', '/api/core/system/instance');
    expect(r.status, r.text).toBe(200);
    const d = r.body.data;
    expect(d.version).toBe(VERSION);
    expect(d.database).toBe(kind === 'sqlite' ? 'sqlite' : 'postgresql');
    expect(d.apps).toEqual(['demo', 'other']);
    const started = Date.parse(d.started_at);
    expect(started).toBeLessThanOrEqual(before);
    // Counted when the answer was made, a moment before executed_at.
    const upto = Math.floor((Date.parse(r.body.executed_at) - started) / 1000);
    expect(d.uptime_seconds).toBeGreaterThanOrEqual(upto - 1);
    expect(d.uptime_seconds).toBeLessThanOrEqual(upto);
    const settings = f.inst.config.settings;
    expect(d.render_pool).toEqual({ workers: settings.renderWorkers, queue_limit: settings.renderQueueLimit });
    expect(d.preview_pool).toEqual({ workers: settings.previewWorkers, queue_limit: settings.previewQueueLimit });
    expect(d.node_version).toBe(process.version);
    expect(d.jwt_expire_hours).toBe(settings.jwtExpireHours);
    // Nothing an administrator's screen must not show.
    for (const secret of [f.db.dataDir, f.appsDir, f.db.databaseUrl, 'postgres://', 'password'].filter(Boolean))
      expect(r.text).not.toContain(secret as string);
  });

  it('GET /api/core/account/session: the credential kind, source, expiry and roles, never its value', async () => {
    const login = await f.inst.login('plain', passwordFor('plain'), { createCookie: true });
    const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
    const byCookie = await f.inst.request('/api/core/account/session', { headers: { cookie } });
    expect(byCookie.status, byCookie.text).toBe(200);
    expect(byCookie.body.data).toEqual({
      username: 'plain',
      user_id: expect.any(String),
      scoped: false,
      password_change_required: false,
      mfa_enrolment_required: false,
      second_factor: false,
      mfa_at: null,
      via: 'jwt',
      source: 'cookie',
      expires_at: new Date(Date.parse(login.body.data.expires_at)).toISOString(),
      roles: ['sys_tokens'],
    });
    expect(byCookie.text).not.toContain(login.body.data.token);

    const forever = (await f.as(f.adminJwt, 'POST', '/api/core/token/create/forever/plain')).body.data.item;
    const limited = (
      await f.as(f.adminJwt, 'POST', '/api/core/token/create/limited/plain?expires_in_days=3&roles=sys_tokens')
    ).body.data.item;
    const asToken = (value: string, query = '') =>
      f.inst.request(
        `/api/core/account/session${query}`,
        value ? { headers: { authorization: `Token ${value}` } } : {},
      );
    const a = await asToken(forever.value);
    expect(a.body.data).toMatchObject({ username: 'plain', via: 'api_token', source: 'header', expires_at: null });
    const b = await asToken(limited.value);
    expect(Date.parse(b.body.data.expires_at)).toBe(Date.parse(`${limited.token_expires_at}Z`));
    expect(b.body.data).toMatchObject({ scoped: true, roles: ['sys_tokens'] });
    expect(a.body.data.scoped).toBe(false);
    const c = await asToken('', `?ptoken=api:${forever.value}`);
    expect(c.body.data.source).toBe('query');
    expect(c.text).not.toContain(forever.value);
    expect((await f.inst.request('/api/core/account/session')).status).toBe(401);
  });

  it('all three are for administrators only', async () => {
    for (const path of ['/api/core/roles', '/api/core/team/members/COM', '/api/core/system/instance']) {
      expect((await f.as(plainJwt, 'GET', path)).status, path).toBe(403);
      expect((await f.as(null, 'GET', path)).status, path).toBe(401);
    }
  });
});
