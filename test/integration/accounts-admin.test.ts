// Lock, unlock, cancel and copy of accounts, and the administration endpoints beyond them.
import { mkdirSync, writeFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { dropTestDatabase, testDatabaseKinds } from '../support/databases.js';
import { startAccountsFixture, type AccountsFixture } from '../support/accounts-fixture.js';
import { ACCOUNT_ITEM_SHAPE, expectShape } from '../support/shapes.js';
import { ADMIN, passwordFor, startInstance } from '../support/instance.js';

const WHOAMI = '/api/core/token/user';

describe.each(testDatabaseKinds())('account administration on %s', (kind) => {
  let f: AccountsFixture;

  beforeAll(async () => {
    f = await startAccountsFixture(kind);
  });
  afterAll(async () => {
    await f?.inst.stop();
    if (f) await dropTestDatabase(f.db);
  });

  /** Every credential form of a user: a JWT (header, cookie, query) and an API token (4 forms). */
  async function credentialsOf(username: string) {
    const jwt = await f.inst.jwtFor(username, passwordFor(username));
    const created = await f.as(f.adminJwt, 'POST', `/api/core/token/create/t-${Date.now()}/${username}`);
    const token = created.body.data.item.value as string;
    const forms: Array<[string, Record<string, string>, string]> = [
      ['bearer jwt', { Authorization: `Bearer ${jwt}` }, ''],
      ['cookie', { Cookie: `ptoken=${jwt}` }, ''],
      ['query jwt', {}, `?ptoken=${jwt}`],
      ['token', { Authorization: `Token ${token}` }, ''],
      ['basic', { Authorization: `Basic ${Buffer.from(`api:${token}`).toString('base64')}` }, ''],
      ['bearer token', { Authorization: `Bearer ${token}` }, ''],
      ['query token', {}, `?ptoken=api:${token}`],
    ];
    return { jwt, token, forms };
  }

  async function statuses(forms: Array<[string, Record<string, string>, string]>, inst = f.inst) {
    const out: Record<string, number> = {};
    for (const [name, headers, query] of forms) out[name] = (await inst.request(WHOAMI + query, { headers })).status;
    return out;
  }
  const all = (forms: Array<[string, unknown, unknown]>, status: number) =>
    Object.fromEntries(forms.map(([n]) => [n, status]));

  it('lock ends every session and blocks every credential form until unlock', async () => {
    await f.user('olga');
    const { forms, token } = await credentialsOf('olga');
    expect(await statuses(forms)).toEqual(all(forms, 200));
    const lock = await f.as(f.adminJwt, 'POST', '/api/core/account/lock/olga');
    expect(lock.status).toBe(200);
    expectShape(lock.body.data.item, ACCOUNT_ITEM_SHAPE);
    expect(lock.body.data.item.islocked).toBe(true);
    expect(await statuses(forms)).toEqual(all(forms, 401));
    expect((await f.inst.login('olga', 'bytn-password-1')).body.data.code).toBe('account_locked');
    expect((await f.inst.login('api', token)).body.data.code).toBe('account_locked');

    const unlock = await f.as(f.adminJwt, 'POST', '/api/core/account/unlock/olga');
    expect(unlock.body.data.item.islocked).toBe(false);
    const after = await statuses(forms);
    // Tokens work again; JWTs issued before the lock stay ended (the stamp rotated).
    expect(after).toEqual({ ...all(forms, 200), 'bearer jwt': 401, cookie: 401, 'query jwt': 401 });
    expect((await f.inst.login('olga', 'bytn-password-1')).status).toBe(200);
  });

  it('cancel blocks every credential form, survives a restart, and reactivate restores', async () => {
    await f.user('pete');
    const { forms } = await credentialsOf('pete');
    const r = await f.as(f.adminJwt, 'POST', '/api/core/account/cancel/pete');
    expect(r.status).toBe(200);
    expect(r.body.data.item.isactive).toBe(false);
    expect(await statuses(forms)).toEqual(all(forms, 401));
    expect((await f.inst.login('pete', 'crgr-password-1')).body.data.code).toBe('account_cancelled');

    const second = await startInstance(f.db, { APPS_DIR: f.appsDir });
    try {
      expect(await statuses(forms, second)).toEqual(all(forms, 401));
      expect((await second.login('pete', 'crgr-password-1')).body.data.code).toBe('account_cancelled');
    } finally {
      await second.stop();
    }
    const back = await f.as(f.adminJwt, 'POST', '/api/core/account/reactivate/pete');
    expect(back.body.data.item.isactive).toBe(true);
    expect((await f.inst.login('pete', 'crgr-password-1')).status).toBe(200);
  });

  it('an administrator cannot lock or cancel their own account', async () => {
    for (const action of ['lock', 'cancel']) {
      const r = await f.as(f.adminJwt, 'POST', `/api/core/account/${action}/${ADMIN.username}`);
      expect(r.status).toBe(400);
      expect(r.body.data.code).toBe(`cannot_${action}_self`);
    }
    expect((await f.inst.login(ADMIN.username, ADMIN.password)).status).toBe(200);
  });

  describe('the user_cancel hook', () => {
    const hooksDir = () => join(f.db.dataDir, 'hooks');
    beforeAll(async () => {
      await sql`create table cancel_log
                (username varchar(256), user_id varchar(36), cancelled_by varchar(256))`.execute(
        f.inst.services.database.db,
      );
    });

    it('runs hooks/user_cancel.sql in the cancel transaction with the named parameters', async () => {
      await f.user('quinn');
      mkdirSync(hooksDir(), { recursive: true });
      writeFileSync(
        join(hooksDir(), 'user_cancel.sql'),
        "-- several statements; ':username' in a literal stays text\ninsert into cancel_log (username, " +
          'user_id, cancelled_by) values (:username, :user_id, :cancelled_by);\ninsert into cancel_log ' +
          "(username) values (':username');\n",
      );
      const r = await f.as(f.adminJwt, 'POST', '/api/core/account/cancel/quinn');
      expect(r.status, r.text).toBe(200);
      const rows = await f.inst.services.database.db
        .selectFrom('cancel_log' as never)
        .selectAll()
        .execute();
      const id = r.body.data.item.id;
      expect(rows).toEqual([
        { username: 'quinn', user_id: id, cancelled_by: ADMIN.username },
        { username: ':username', user_id: null, cancelled_by: null },
      ]);
      const events = await f.inst.services.database.db
        .selectFrom('audit_log')
        .selectAll()
        .where('subject', '=', 'quinn')
        .where('action', '=', 'account_cancel')
        .execute();
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({ action: 'account_cancel', actor: ADMIN.username, subject_id: id });
      expect(JSON.parse(events[0]!.data)).toEqual({ hook: 'sql_file' });
    });

    it('a failing hook leaves the account active and answers 409 hook_failed (file re-read each time)', async () => {
      await f.user('rosa');
      const rosa = await f.inst.jwtFor('rosa', 'ebfn-password-1');
      writeFileSync(
        join(hooksDir(), 'user_cancel.sql'),
        'insert into cancel_log (username) values (:username);\ninsert into no_such_table values (1);',
      );
      const r = await f.as(f.adminJwt, 'POST', '/api/core/account/cancel/rosa');
      expect(r.status).toBe(409);
      expect(r.body.data.code).toBe('hook_failed');
      expect(r.body.message).toMatch(/no_such_table/);
      const row = await f.inst.services.database.db
        .selectFrom('users')
        .selectAll()
        .where('username', '=', 'rosa')
        .executeTakeFirstOrThrow();
      expect(row.is_active).toBe(1);
      // The first statement's row rolled back with the cancel.
      const logged = await f.inst.services.database.db
        .selectFrom('cancel_log' as never)
        .selectAll()
        .where('username' as never, '=', 'rosa' as never)
        .execute();
      expect(logged).toEqual([]);
      // Sessions were not ended either.
      expect((await f.inst.request(WHOAMI, { headers: { Authorization: `Bearer ${rosa}` } })).status).toBe(200);
      // The cancel's own audit row rolled back with it; the broken hook is recorded on its own.
      const failed = await f.inst.services.database.db
        .selectFrom('audit_log')
        .selectAll()
        .where('subject', '=', 'rosa')
        .where('action', 'in', ['account_cancel', 'cancel_hook_failed'])
        .execute();
      expect(failed.map((e) => e.action)).toEqual(['cancel_hook_failed']);
      expect(JSON.parse(failed[0]!.data)).toMatchObject({
        hook: 'sql_file',
        error: expect.stringMatching(/no_such_table/),
      });
      rmSync(join(hooksDir(), 'user_cancel.sql'));
      expect((await f.as(f.adminJwt, 'POST', '/api/core/account/cancel/rosa')).status).toBe(200);
    });
  });

  it('copy adds the roles and teams of the source to the target (union)', async () => {
    await f.as(f.adminJwt, 'POST', '/api/core/team/create', { team_short: 'DEV', team_name: 'Development' });
    await f.user('tara', { roles: ['sys_tokens', 'app_demo'], teams: ['DEV'] });
    await f.user('uma', { roles: ['app_other'] });
    const r = await f.as(f.adminJwt, 'POST', '/api/core/account/copy/tara/uma');
    expect(r.status).toBe(200);
    expect(r.body.data.item).toMatchObject({ username: 'uma', roles: 3, teams: 2 });
    const profile = (await f.as(f.adminJwt, 'GET', '/api/core/account/profile/uma')).body.data;
    expect(profile.roles).toEqual(['app_demo', 'app_other', 'sys_tokens']);
    expect(profile.teams.map((t: any) => t.team_short).sort()).toEqual(['COM', 'DEV']);
    expect(profile.user.team_name).toBe('Common'); // the primary team is kept
    expect((await f.as(f.adminJwt, 'POST', '/api/core/account/copy/tara/ghost')).status).toBe(404);
  });

  it('creates accounts, resets and changes passwords, grants and revokes roles', async () => {
    const created = await f.as(f.adminJwt, 'POST', '/api/core/account/create', {
      username: 'vera',
      password: 'iren-password-1',
      roles: ['sys_tokens'],
      user_first_name: 'Vera',
    });
    expect(created.status).toBe(201);
    expectShape(created.body.data.item, ACCOUNT_ITEM_SHAPE);
    expect(
      (await f.as(f.adminJwt, 'POST', '/api/core/account/create', { username: 'VERA', password: 'another-pw-1' }))
        .status,
    ).toBe(409);
    expect(
      (await f.as(f.adminJwt, 'POST', '/api/core/account/create', { username: 'api', password: 'another-pw-1' }))
        .status,
    ).toBe(400);
    expect(
      (await f.as(f.adminJwt, 'POST', '/api/core/account/create', { username: 'wes', password: 'short' })).status,
    ).toBe(400);

    const vera = await f.inst.jwtFor('vera', 'iren-password-1');
    const wrong = await f.as(vera, 'POST', '/api/core/account/password', {
      current_password: 'nope',
      new_password: 'iren-password-2',
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.data.details[0].field).toBe('current_password');
    expect(
      (
        await f.as(vera, 'POST', '/api/core/account/password', {
          current_password: 'iren-password-1',
          new_password: 'iren-password-2',
        })
      ).status,
    ).toBe(200);
    expect((await f.as(vera, 'GET', WHOAMI)).status).toBe(401); // the change ended the session
    expect((await f.inst.login('vera', 'iren-password-1')).status).toBe(401);
    const vera2 = await f.inst.jwtFor('vera', 'iren-password-2');

    expect(
      (await f.as(f.adminJwt, 'POST', '/api/core/account/password/vera', { password: 'iren-password-3' })).status,
    ).toBe(200);
    expect((await f.as(vera2, 'GET', WHOAMI)).status).toBe(401);
    const vera3 = await f.inst.jwtFor('vera', 'iren-password-3');

    expect((await f.as(vera3, 'GET', '/api/core/token/browse')).status).toBe(403);
    const grant = await f.as(f.adminJwt, 'POST', '/api/core/account/role/grant/vera/sys_administrator');
    expect(grant.body.data.item.roles).toBe(2);
    expect((await f.as(vera3, 'GET', '/api/core/token/browse')).status).toBe(200); // at once
    expect((await f.as(f.adminJwt, 'POST', '/api/core/account/role/revoke/vera/sys_administrator')).status).toBe(200);
    expect((await f.as(vera3, 'GET', '/api/core/token/browse')).status).toBe(403);
    expect((await f.as(f.adminJwt, 'POST', '/api/core/account/role/revoke/vera/sys_administrator')).status).toBe(404);
    expect(
      (await f.as(f.adminJwt, 'POST', `/api/core/account/role/revoke/${ADMIN.username}/sys_administrator`)).status,
    ).toBe(400);
  });

  it('manages teams and keeps every account in at least one team', async () => {
    const list = await f.as(f.adminJwt, 'GET', '/api/core/team/browse');
    expect(list.body.data.items.map((t: any) => t.team_short)).toContain('COM');
    expect(
      (await f.as(f.adminJwt, 'POST', '/api/core/team/create', { team_short: 'COM', team_name: 'dup' })).status,
    ).toBe(409);
    expect(
      (await f.as(f.adminJwt, 'POST', '/api/core/team/create', { team_short: 'X', team_name: 'x', team_type: 'alien' }))
        .status,
    ).toBe(400);
    await f.user('xena');
    const last = await f.as(f.adminJwt, 'POST', '/api/core/team/member/remove/COM/xena');
    expect(last.status).toBe(400);
    expect(last.body.data.code).toBe('last_team');
    await f.as(f.adminJwt, 'POST', '/api/core/team/create', { team_short: 'QA', team_name: 'Quality' });
    expect((await f.as(f.adminJwt, 'POST', '/api/core/team/member/add/QA/xena')).status).toBe(200);
    expect((await f.as(f.adminJwt, 'POST', '/api/core/team/member/remove/COM/xena')).status).toBe(200);
    const user = (await f.as(f.adminJwt, 'GET', '/api/core/account/profile/xena')).body.data.user;
    expect(user.team_name).toBe('Quality'); // the primary team moved
  });

  it('50 parallel lock/unlock/copy requests leave a consistent state', async () => {
    await f.user('yara', { roles: ['sys_tokens'] });
    await f.user('zoe');
    const sources = ['s0', 's1', 's2', 's3', 's4'];
    for (const [i, s] of sources.entries()) await f.user(s, { roles: [`role_${i}`] });
    const ops = Array.from({ length: 50 }, (_, i) => {
      if (i % 5 === 4) return `/api/core/account/copy/${sources[((i / 5) % 5) | 0]}/zoe`;
      return i % 2 === 0 ? '/api/core/account/lock/yara' : '/api/core/account/unlock/yara';
    });
    const done: Array<{ path: string; order: number; islocked?: boolean }> = [];
    let order = 0;
    await Promise.all(
      ops.map(async (path) => {
        const r = await f.as(f.adminJwt, 'POST', path);
        expect(r.status, r.text).toBe(200);
        done.push({ path, order: order++, islocked: r.body.data.item.islocked });
      }),
    );
    const lockOps = done.filter((d) => !d.path.includes('/copy/'));
    const lastAcknowledged = lockOps.sort((a, b) => a.order - b.order).at(-1)!;
    const yara = (await f.as(f.adminJwt, 'GET', '/api/core/account/browse')).body.data.items.find(
      (i: any) => i.username === 'yara',
    );
    expect(yara.islocked).toBe(lastAcknowledged.path.endsWith('/lock/yara'));
    expect(yara.islocked).toBe(lastAcknowledged.islocked);
    // Each answer showed the state its own request produced.
    for (const d of lockOps) expect(d.islocked).toBe(d.path.includes('/lock/'));
    const zoe = (await f.as(f.adminJwt, 'GET', '/api/core/account/profile/zoe')).body.data;
    expect(zoe.roles).toEqual(
      ['role_0', 'role_1', 'role_2', 'role_3', 'role_4'].filter((r) =>
        done.some((d) => d.path.includes(`/copy/s${r.slice(-1)}/`)),
      ),
    );
    expect(zoe.teams.map((t: any) => t.team_short)).toEqual(['COM']);
  });
});
