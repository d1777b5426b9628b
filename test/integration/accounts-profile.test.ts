// Profile, profile-update, directory, context and the obsolete system endpoint, with
// exact response shapes, on both databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropTestDatabase, testDatabaseKinds } from '../support/databases.js';
import { startAccountsFixture, type AccountsFixture } from '../support/accounts-fixture.js';
import {
  ACCOUNT_ITEM_SHAPE,
  ENVELOPE_SHAPE,
  expectShape,
  PROFILE_TEAM_SHAPE,
  PROFILE_USER_SHAPE,
} from '../support/shapes.js';
import { ADMIN } from '../support/instance.js';

describe.each(testDatabaseKinds())('account profile and directory on %s', (kind) => {
  let f: AccountsFixture;
  let kim: string;

  beforeAll(async () => {
    f = await startAccountsFixture(kind, { Settings__OwnerName: 'ACME Corp' });
    kim = await f.user('kim', { firstName: 'Kim', lastName: 'Lee', roles: ['app_demo', 'sys_tokens'] });
  });
  afterAll(async () => {
    await f?.inst.stop();
    if (f) await dropTestDatabase(f.db);
  });

  it('GET profile returns every dataset with the exact shapes of spec §2.3', async () => {
    const r = await f.as(kim, 'GET', '/api/core/account/profile');
    expect(r.status).toBe(200);
    expectShape(r.body, ENVELOPE_SHAPE, 'envelope');
    const d = r.body.data;
    expect(Object.keys(d).sort()).toEqual(['apps', 'instance', 'roles', 'teams', 'user']);
    expectShape(
      d.instance,
      { 'kv.v.api.version': 'string', 'kv.v.api.url': 'string', 'kv.v.owner.name': 'string' },
      'instance',
    );
    expect(d.instance['kv.v.api.version']).toBe('0.1.0');
    expect(d.instance['kv.v.api.url']).toBe(f.inst.url);
    expect(d.instance['kv.v.owner.name']).toBe('ACME Corp');
    expectShape(d.user, PROFILE_USER_SHAPE, 'user');
    expect(d.user).toMatchObject({
      username: 'kim',
      team_name: 'Common',
      user_first_name: 'Kim',
      user_last_name: 'Lee',
      user_short: 'KL',
    });
    expect(d.user.user_color).toMatch(/^#[0-9A-F]{6}$/);
    for (const t of d.teams) expectShape(t, PROFILE_TEAM_SHAPE, 'team');
    expect(d.teams).toEqual([
      { team_id: d.user.team_id, team_short: 'COM', team_name: 'Common', teamuser_lvl: null, team_type: 'internal' },
    ]);
    expect(d.roles).toEqual(['app_demo', 'sys_tokens']);
    expect(d.apps).toEqual(['demo']);
  });

  it('the default colour is stable per username and differs between users', async () => {
    const a = (await f.as(kim, 'GET', '/api/core/account/profile?pscope=user')).body.data.user.user_color;
    const b = (await f.as(kim, 'GET', '/api/core/account/profile?pscope=user')).body.data.user.user_color;
    const admin = (await f.as(f.adminJwt, 'GET', '/api/core/account/profile?pscope=user')).body.data.user.user_color;
    expect(a).toBe(b);
    expect(a).not.toBe(admin);
  });

  it('app_administrator sees every app', async () => {
    const r = await f.as(f.adminJwt, 'GET', '/api/core/account/profile');
    expect(r.body.data.apps).toEqual(['demo', 'other']);
  });

  it('pscope: user → only data.user; a list with teams/roles/apps → all; unknown → 400 naming pscope', async () => {
    const only = await f.as(kim, 'GET', '/api/core/account/profile?pscope=user');
    expect(Object.keys(only.body.data)).toEqual(['user']);
    expectShape(only.body.data.user, PROFILE_USER_SHAPE);
    const list = await f.as(kim, 'GET', '/api/core/account/profile?pscope=teams,roles,apps');
    expect(Object.keys(list.body.data).sort()).toEqual(['apps', 'instance', 'roles', 'teams', 'user']);
    const bad = await f.as(kim, 'GET', '/api/core/account/profile?pscope=teams,secrets');
    expect(bad.status).toBe(400);
    expect(bad.body.data.details[0].field).toBe('pscope');
  });

  it('an administrator reads another profile; kv.v.api.url follows Settings:PublicUrl when set', async () => {
    const r = await f.as(f.adminJwt, 'GET', '/api/core/account/profile/kim');
    expect(r.status).toBe(200);
    expect(r.body.data.user.username).toBe('kim');
    expect((await f.as(f.adminJwt, 'GET', '/api/core/account/profile/nobody')).status).toBe(404);
  });

  describe('profile-update', () => {
    it('applies every accepted field and answers the updated user', async () => {
      const team = await f.as(f.adminJwt, 'POST', '/api/core/team/create', {
        team_short: 'OPS',
        team_name: 'Operations',
        team_type: 'external',
      });
      expect(team.status).toBe(201);
      // The optional body is still validated when sent: too long, or an unknown field → 400.
      for (const bad of [{ teamuser_lvl: 'x'.repeat(65) }, { teamuser_lvl: 'lead', extra: 1 }]) {
        const refused = await f.as(f.adminJwt, 'POST', '/api/core/team/member/add/OPS/kim', bad);
        expect(refused.status, JSON.stringify(bad)).toBe(400);
        expect(refused.body.data.code).toBe('invalid_input');
      }
      expect(
        (await f.as(f.adminJwt, 'POST', '/api/core/team/member/add/OPS/kim', { teamuser_lvl: 'lead' })).status,
      ).toBe(200);
      const body = {
        phonenumber: '+49 (30) 123-456',
        team_id: team.body.data.item.team_id,
        user_currency: 'USD',
        user_first_name: 'Kimberly',
        user_last_name: 'Lee-Park',
        user_color: '#12ab9F',
        user_short: 'KLP',
        user_properties: { theme: 'dark', n: 3, nested: { a: [1, 2] } },
        user_avatar: 'https://example.com/a.png',
        user_home: '/apps/demo',
      };
      const r = await f.as(kim, 'POST', '/api/core/account/profile-update', body);
      expect(r.status, r.text).toBe(200);
      expectShape(r.body.data.user, PROFILE_USER_SHAPE);
      expect(r.body.data.user).toMatchObject({
        phonenumber: body.phonenumber,
        team_id: body.team_id,
        team_name: 'Operations',
        user_currency: 'USD',
        user_first_name: 'Kimberly',
        user_last_name: 'Lee-Park',
        user_color: '#12AB9F',
        user_short: 'KLP',
        user_properties: body.user_properties,
        user_home: '/apps/demo',
      });
      const teams = (await f.as(kim, 'GET', '/api/core/account/profile')).body.data.teams;
      expect(teams.find((t: any) => t.team_short === 'OPS')).toMatchObject({
        teamuser_lvl: 'lead',
        team_type: 'external',
      });
      const item = (await f.as(f.adminJwt, 'GET', '/api/core/account/browse')).body.data.items.find(
        (i: any) => i.username === 'kim',
      );
      expect(item.user_avatar).toBe('https://example.com/a.png');
      expect(item.teams).toBe(2);
    });

    const invalid: Array<[string, unknown]> = [
      ['phonenumber', 'call me maybe'],
      ['phonenumber', '1'.repeat(33)],
      ['phonenumber', 12345],
      ['team_id', 'not-a-uuid'],
      ['team_id', '00000000-0000-4000-8000-000000000000'],
      ['user_currency', 'usd'],
      ['user_currency', 'EURO'],
      ['user_first_name', 'x'.repeat(257)],
      ['user_last_name', false],
      ['user_color', 'red'],
      ['user_color', '#12345'],
      ['user_short', ''],
      ['user_short', 'ABCDE'],
      ['user_properties', [1, 2]],
      ['user_properties', 'text'],
      ['user_properties', { big: 'x'.repeat(65 * 1024) }],
      ['user_avatar', 'javascript:alert(1)'],
      ['user_avatar', 'http://insecure.example/a.png'],
      ['user_avatar', '//evil.example/a.png'],
      ['user_avatar', `https://e.example/${'a'.repeat(2048)}`],
      ['user_home', 'h'.repeat(257)],
      ['nickname', 'unknown fields are refused'],
    ];
    it.each(invalid)('refuses %s = %j with a 400 naming the field, applying nothing', async (field, value) => {
      const before = (await f.as(kim, 'GET', '/api/core/account/profile?pscope=user')).body.data.user;
      const r = await f.as(kim, 'POST', '/api/core/account/profile-update', {
        user_first_name: 'Changed',
        [field]: value,
      });
      expect(r.status, r.text).toBe(400);
      expect(r.body.data.code).toBe('invalid_input');
      expect(r.body.data.details.map((d: any) => d.field)).toContain(field);
      expect(r.body.message).toContain(field);
      const after = (await f.as(kim, 'GET', '/api/core/account/profile?pscope=user')).body.data.user;
      expect(after).toEqual(before);
    });

    it('an administrator updates another user via `username`; a plain user may not', async () => {
      const other = await f.user('lou');
      const r = await f.as(f.adminJwt, 'POST', '/api/core/account/profile-update', {
        username: 'kim',
        user_first_name: 'K.',
      });
      expect(r.status).toBe(200);
      expect(r.body.data.user).toMatchObject({ username: 'kim', user_first_name: 'K.' });
      const denied = await f.as(other, 'POST', '/api/core/account/profile-update', {
        username: 'kim',
        user_first_name: 'Hacked',
      });
      expect(denied.status).toBe(403);
      expect(
        (
          await f.as(f.adminJwt, 'POST', '/api/core/account/profile-update', {
            username: 'ghost',
            user_first_name: 'x',
          })
        ).status,
      ).toBe(404);
    });
  });

  describe('browse', () => {
    it('lists every account with the exact shape of spec §2.4 and the stats', async () => {
      const r = await f.as(f.adminJwt, 'GET', '/api/core/account/browse');
      expect(r.status).toBe(200);
      expect(r.body.message).toBe(`${r.body.data.items.length} accounts`);
      for (const item of r.body.data.items) expectShape(item, ACCOUNT_ITEM_SHAPE, `item ${item.username}`);
      expectShape(
        r.body.data.stats,
        { count: 'integer', locked: 'integer', last_week: 'integer', today: 'integer' },
        'stats',
      );
      expect(r.body.data.stats.count).toBe(r.body.data.items.length);
      expect(r.body.data.stats.today).toBeGreaterThanOrEqual(2); // admin and kim logged in
      expect(r.body.data.stats.last_week).toBeGreaterThanOrEqual(r.body.data.stats.today);
      const admin = r.body.data.items.find((i: any) => i.username === ADMIN.username);
      expect(admin).toMatchObject({
        roles: 4,
        teams: 1,
        isactive: true,
        islocked: false,
        lockoutend: null,
        lockoutending: null,
      });
    });

    it('shows a lock with lockoutend (UTC offset) and lockoutending (Z), and counts it', async () => {
      await f.user('mia');
      const before = (await f.as(f.adminJwt, 'GET', '/api/core/account/browse')).body.data.stats.locked;
      expect((await f.as(f.adminJwt, 'POST', '/api/core/account/lock/mia')).status).toBe(200);
      const r = await f.as(f.adminJwt, 'GET', '/api/core/account/browse');
      const mia = r.body.data.items.find((i: any) => i.username === 'mia');
      expect(mia.islocked).toBe(true);
      expect(mia.lockoutend).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?\+00:00$/);
      expect(mia.lockoutending).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
      expect(Date.parse(mia.lockoutend)).toBe(Date.parse(mia.lockoutending));
      expect(r.body.data.stats.locked).toBe(before + 1);
    });

    it('lastActivity moves forward when the user makes an authenticated request', async () => {
      const nia = await f.user('nia');
      await f.inst.services.auth.activity.flush();
      const item = async () =>
        (await f.as(f.adminJwt, 'GET', '/api/core/account/browse')).body.data.items.find(
          (i: any) => i.username === 'nia',
        );
      const first = (await item()).lastActivity;
      await f.inst.services.database.db
        .updateTable('users')
        .set({ last_activity: '2020-01-01T00:00:00.000000Z' })
        .where('username', '=', 'nia')
        .execute();
      expect((await item()).lastActivity).toBe('2020-01-01T00:00:00.000000Z');
      // A new instance-level "seen" is coalesced per minute; a fresh login always records it.
      await f.inst.jwtFor('nia', 'avn-password-1');
      expect((await item()).lastActivity >= first).toBe(true);
      void nia;
    });
  });

  describe('context', () => {
    it('sets the own context for an allowed app; unknown app 400; not allowed 403', async () => {
      const ok = await f.as(kim, 'POST', '/api/core/account/context/demo');
      expect(ok.status, ok.text).toBe(200);
      expectShape(ok.body.data.item, ACCOUNT_ITEM_SHAPE);
      expect(ok.body.data.item.user_app_name).toBe('demo');
      expect((await f.as(kim, 'GET', '/api/core/account/profile?pscope=user')).body.data.user.user_app_name).toBe(
        'demo',
      );
      const unknown = await f.as(kim, 'POST', '/api/core/account/context/nowhere');
      expect(unknown.status).toBe(400);
      expect(unknown.body.data.code).toBe('unknown_app');
      const denied = await f.as(kim, 'POST', '/api/core/account/context/other');
      expect(denied.status).toBe(403);
      expect(denied.body.data.code).toBe('app_not_allowed');
    });
    it("an administrator sets another user's context; a plain user may not", async () => {
      expect((await f.as(f.adminJwt, 'POST', '/api/core/account/context/demo/kim')).status).toBe(200);
      const lou = await f.inst.jwtFor('lou', 'ybh-password-1');
      expect((await f.as(lou, 'POST', '/api/core/account/context/demo/kim')).status).toBe(403);
    });
  });

  describe('GET /api/core/system (obsolete)', () => {
    it('answers the bare object of spec §2.6 with Deprecation and successor Link', async () => {
      const r = await f.as(kim, 'GET', '/api/core/system');
      expect(r.status).toBe(200);
      expectShape(r.body, {
        'kv.v.api.token': 'string',
        'kv.v.api.url': 'string',
        'kv.v.api.version': 'string',
        'kv.v.owner.language': 'string',
        'kv.v.owner.name': 'string',
        'kv.v.user.app_name': 'string',
        'kv.v.user.currency': 'string',
        'kv.v.user.teamid': 'uuid',
        'kv.v.user.userid': 'uuid',
        'kv.v.user.username': 'string',
        'kv.v.user.apps': 'array',
      });
      expect(r.body['kv.v.api.token']).toBe('');
      expect(r.body['kv.v.user.username']).toBe('kim');
      expect(r.body['kv.v.owner.language']).toBe('en');
      expect(r.headers.get('deprecation')).toMatch(/^@\d+$/);
      expect(r.headers.get('link')).toContain('</api/core/account/profile>; rel="successor-version"');
      const setup = await f.as(kim, 'GET', '/api/core/system?setup=true');
      expect(setup.body['kv.v.instance.database']).toBe(kind === 'sqlite' ? 'sqlite' : 'postgresql');
      expect(setup.body['kv.v.instance.apps']).toEqual(['demo', 'other']);
      expect(setup.body['kv.v.instance.jwt_expire_hours']).toBe(24);
      expect((await f.as(kim, 'GET', '/api/core/system?setup=maybe')).status).toBe(400);
      expect((await f.as(null, 'GET', '/api/core/system')).status).toBe(401);
    });
  });
});
