// Audit trail: every audited action writes exactly one row in its own transaction (a
// failing action writes none), GET /api/core/audit pages and filters it, retention prunes it,
// `platform-core audit` prints it, and a failed login's log line names the username and client.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { dropTestDatabase, testDatabaseKinds } from '../support/databases.js';
import { startSrsFixture, type SrsFixture } from './srs-fixture.js';
import { ADMIN } from '../support/instance.js';
import { runCli, said } from '../support/cli-child.js';
import type { AuditRow } from '../../src/db/schema.js';
import { isoMicros } from '../../src/lib/time.js';

type Json = Record<string, unknown>;

describe.each(testDatabaseKinds())('the audit trail on %s', (kind) => {
  let f: SrsFixture;
  let adminId: string;

  beforeAll(async () => {
    f = await startSrsFixture(kind, { Settings__LockoutMaxFailedAttempts: '3' });
    adminId = await idOf(ADMIN.username);
  });
  afterAll(async () => {
    await f?.inst.stop();
    if (f) await dropTestDatabase(f.db);
  });

  const db = () => f.inst.services.database.db;
  const idOf = async (username: string) =>
    (await db().selectFrom('users').select('id').where('username', '=', username).executeTakeFirstOrThrow()).id;
  const allRows = () => db().selectFrom('audit_log').selectAll().execute();

  /** The rows `act` adds (rows already there are left out by id). */
  async function added(act: () => Promise<unknown>): Promise<AuditRow[]> {
    const before = new Set((await allRows()).map((r) => r.id));
    await act();
    await f.inst.services.auth.activity.flush();
    return (await allRows()).filter((r) => !before.has(r.id));
  }

  async function post(jwt: string | null, path: string, json?: unknown) {
    const r = await f.as(jwt, path, { method: 'POST', ...(json !== undefined ? { json } : {}) });
    return r;
  }

  /** Runs a request that must succeed and returns its single audit row, checked against the request. */
  async function one(
    action: string,
    request: () => ReturnType<typeof post>,
    expected: Partial<Omit<AuditRow, 'data'>> & { data?: Json } = {},
  ): Promise<AuditRow> {
    let status = 0;
    let requestId = '';
    const rows = await added(async () => {
      const r = await request();
      status = r.status;
      requestId = r.headers.get('x-request-id') ?? '';
      expect(r.status, r.text).toBeLessThan(300);
    });
    expect(status).toBeLessThan(300);
    expect(
      rows.map((r) => r.action),
      `${action}: exactly one row`,
    ).toEqual([action]);
    const row = rows[0]!;
    const { data, ...columns } = expected;
    expect(row).toMatchObject({ client: '127.0.0.1', request_id: requestId, ...columns });
    if (data) expect(JSON.parse(row.data)).toMatchObject(data);
    return row;
  }

  /** A request that must fail and write nothing. */
  async function none(request: () => ReturnType<typeof post>, status: number) {
    const rows = await added(async () => {
      const r = await request();
      expect(r.status, r.text).toBe(status);
    });
    expect(rows.map((r) => r.action)).toEqual([]);
  }

  it('records each account administration action once, with actor, subject and request', async () => {
    const admin = { actor: ADMIN.username, actor_id: adminId, via: 'jwt' };
    const created = await one(
      'account_create',
      () => post(f.adminJwt, '/api/core/account/create', { username: 'ava', password: 'nin-password-1' }),
      { ...admin, subject: 'ava' },
    );
    const ava = await idOf('ava');
    expect(created.subject_id).toBe(ava);
    const about = { ...admin, subject: 'ava', subject_id: ava };
    await one('role_grant', () => post(f.adminJwt, '/api/core/account/role/grant/ava/app_demo'), {
      ...about,
      data: { role: 'app_demo' },
    });
    await one('role_revoke', () => post(f.adminJwt, '/api/core/account/role/revoke/ava/app_demo'), {
      ...about,
      data: { role: 'app_demo' },
    });
    await one('account_lock', () => post(f.adminJwt, '/api/core/account/lock/ava'), about);
    await one('account_unlock', () => post(f.adminJwt, '/api/core/account/unlock/ava'), about);
    await one('account_cancel', () => post(f.adminJwt, '/api/core/account/cancel/ava'), about);
    await one('account_reactivate', () => post(f.adminJwt, '/api/core/account/reactivate/ava'), about);
    await one('account_copy', () => post(f.adminJwt, '/api/core/account/copy/dora/ava'), {
      ...about,
      data: { from: 'dora', roles: ['app_demo'] },
    });
    await one('context_change', () => post(f.adminJwt, '/api/core/account/context/demo/ava'), {
      ...about,
      data: { app: 'demo' },
    });
    await one(
      'profile_update',
      () => post(f.adminJwt, '/api/core/account/profile-update', { username: 'ava', user_first_name: 'Ava' }),
      { ...about, data: { fields: ['first_name'] } },
    );
    await one(
      'password_set',
      () => post(f.adminJwt, '/api/core/account/password/ava', { password: 'nin-password-2' }),
      about,
    );
    await one('team_create', () =>
      post(f.adminJwt, '/api/core/team/create', { team_short: 'AUD', team_name: 'Auditors' }),
    );
    await one('team_member_add', () => post(f.adminJwt, '/api/core/team/member/add/AUD/ava'), {
      ...about,
      data: { team: 'AUD' },
    });
    await one('team_member_remove', () => post(f.adminJwt, '/api/core/team/member/remove/AUD/ava'), {
      ...about,
      data: { team: 'AUD' },
    });
  });

  it('records the own actions of a user: profile (not audited), password change, tokens, logout', async () => {
    await post(f.adminJwt, '/api/core/account/create', {
      username: 'ben',
      password: 'ora-password-1',
      roles: ['sys_tokens'],
    });
    const ben = await idOf('ben');
    const jwt = await f.inst.jwtFor('ben', 'ora-password-1');
    const self = { actor: 'ben', actor_id: ben, subject: 'ben', subject_id: ben };
    // A user's own profile edit is theirs to make: not an administrator's action.
    const own = await added(async () => {
      const r = await post(jwt, '/api/core/account/profile-update', { user_first_name: 'Ben' });
      expect(r.status, r.text).toBe(200);
    });
    expect(own).toEqual([]);
    const created = await f.as(jwt, '/api/core/token/create/bens-token', { method: 'POST' });
    expect(created.status, created.text).toBe(201);
    const value = created.body.data.item.value as string;
    const rows = await allRows();
    expect(rows.filter((r) => r.action === 'token_create' && r.subject_id === ben)).toHaveLength(1);
    // First use: once, however often the token is used.
    const firstUse = await added(async () => {
      for (let i = 0; i < 3; i++)
        expect((await f.as(null, `/api/core/token/user?ptoken=api:${value}`)).status).toBe(200);
    });
    expect(firstUse.map((r) => r.action)).toEqual(['token_first_use']);
    expect(firstUse[0]).toMatchObject({ actor: 'ben', subject_id: ben, via: 'api_token' });
    expect(JSON.parse(firstUse[0]!.data)).toEqual({ name: 'bens-token' });
    await one('token_delete', () => post(jwt, '/api/core/token/delete/bens-token/ben'), {
      ...self,
      data: { name: 'bens-token' },
    });
    await one(
      'password_change',
      () =>
        post(jwt, '/api/core/account/password', {
          current_password: 'ora-password-1',
          new_password: 'ora-pw-2xx-longer',
        }),
      self,
    );
    const again = await f.inst.jwtFor('ben', 'ora-pw-2xx-longer');
    await one('logout', () => post(again, '/api/core/account/logout'), { ...self, via: 'jwt' });
  });

  it('records logins, failed logins (username as typed, reason) and the lockout they cause', async () => {
    await post(f.adminJwt, '/api/core/account/create', { username: 'cleo', password: 'pyrb-password-1' });
    const cleo = await idOf('cleo');
    const login = (username: string, password: string) => post(null, '/api/core/account/login', { username, password });
    const ok = await added(() => login('CLEO', 'pyrb-password-1'));
    expect(ok.map((r) => r.action)).toEqual(['login']);
    expect(ok[0]).toMatchObject({ actor: 'cleo', actor_id: cleo, via: 'password', client: '127.0.0.1' });

    const unknown = await added(() => login('Nobody.Here', 'whatever-1'));
    expect(unknown.map((r) => r.action)).toEqual(['login_failed']);
    expect(unknown[0]).toMatchObject({ actor: 'Nobody.Here', actor_id: null, subject: null, via: 'password' });
    expect(JSON.parse(unknown[0]!.data)).toEqual({ reason: 'invalid_credentials' });

    const wrong = await added(async () => {
      await login('Cleo', 'wrong-1');
      await login('Cleo', 'wrong-2');
    });
    expect(wrong.map((r) => r.action)).toEqual(['login_failed', 'login_failed']);
    expect(wrong[0]).toMatchObject({ actor: 'Cleo', actor_id: cleo, subject: 'cleo', subject_id: cleo });
    // The third failure reaches the limit (Settings:LockoutMaxFailedAttempts 3) and locks.
    const third = await added(() => login('cleo', 'wrong-3'));
    expect(third.map((r) => r.action).sort()).toEqual(['account_lockout', 'login_failed']);
    expect(third.find((r) => r.action === 'account_lockout')).toMatchObject({ subject: 'cleo', subject_id: cleo });
    const locked = await added(() => login('cleo', 'pyrb-password-1'));
    expect(locked.map((r) => r.action)).toEqual(['login_failed']);
    expect(JSON.parse(locked[0]!.data)).toEqual({ reason: 'account_locked' });

    const token = await added(() => login('api', 'not-a-token'));
    expect(token[0]).toMatchObject({ action: 'login_failed', actor: 'api', via: 'api_token' });

    // The warn line of a failed login carries the username as typed and the client address.
    const lines = f.inst
      .logs()
      .split('\n')
      .filter((l) => l.includes('"authentication failed"') && l.includes('Nobody.Here'));
    expect(lines.length).toBeGreaterThan(0);
    expect(JSON.parse(lines[0]!)).toMatchObject({ username: 'Nobody.Here', client: '127.0.0.1' });
  });

  it('records SRS renders with app, definition, template and format', async () => {
    const row = await one(
      'srs_render',
      () => f.as(f.adminJwt, '/api/srs/1/invoice.frx.pdf?app_name=demo&order_id=1004'),
      { actor: ADMIN.username, actor_id: adminId },
    );
    expect(JSON.parse(row.data)).toMatchObject({
      app: 'demo',
      definition: '1',
      template: 'invoice',
      format: 'pdf',
      pages: expect.any(Number),
    });
  });

  it('a failing action writes no row', async () => {
    await none(() => post(f.adminJwt, `/api/core/account/lock/${ADMIN.username}`), 400);
    await none(() => post(f.adminJwt, '/api/core/account/role/revoke/dora/sys_tokens'), 404);
    await none(() => post(f.adminJwt, '/api/core/account/create', { username: 'dora', password: 'k-password-1' }), 409);
    await none(() => post(f.adminJwt, '/api/core/team/member/remove/COM/dora'), 400);
    const jwt = await f.inst.jwtFor('dora', 'qben-password-1');
    await none(
      () => post(jwt, '/api/core/account/password', { current_password: 'wrong-pw-1', new_password: 'qben-pw-new1' }),
      400,
    );
    await none(() => f.as(f.doraJwt, '/api/srs/1/no-such-template.frx.pdf?app_name=demo&order_id=9001'), 404);
  });

  it('writes the row in the action’s transaction: when the row cannot be written, the action is undone', async () => {
    // A trigger refuses role_grant rows: the grant must fail and leave no role behind.
    if (kind === 'sqlite') {
      await sql`CREATE TRIGGER refuse_grant_audit BEFORE INSERT ON audit_log WHEN NEW.action = 'role_grant'
        BEGIN SELECT RAISE(ABORT, 'audit refused'); END`.execute(db());
    } else {
      await sql`CREATE FUNCTION refuse_grant_audit() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN IF NEW.action = 'role_grant' THEN RAISE EXCEPTION 'audit refused'; END IF; RETURN NEW; END $$`.execute(
        db(),
      );
      await sql`CREATE TRIGGER refuse_grant_audit BEFORE INSERT ON audit_log
        FOR EACH ROW EXECUTE FUNCTION refuse_grant_audit()`.execute(db());
    }
    try {
      const r = await post(f.adminJwt, '/api/core/account/role/grant/nemo/srs_administrator');
      expect(r.status).toBeGreaterThanOrEqual(500);
      const roles = await db()
        .selectFrom('user_roles')
        .select('role_name')
        .where('user_id', '=', await idOf('nemo'))
        .execute();
      expect(roles.map((x) => x.role_name)).not.toContain('srs_administrator');
    } finally {
      await sql`DROP TRIGGER refuse_grant_audit${sql.raw(kind === 'sqlite' ? '' : ' ON audit_log')}`.execute(db());
      if (kind !== 'sqlite') await sql`DROP FUNCTION refuse_grant_audit()`.execute(db());
    }
  });

  describe('GET /api/core/audit', () => {
    const get = (query: string, jwt = f.adminJwt) => f.as(jwt, `/api/core/audit${query}`);

    it('pages through the whole trail newest first, without gaps or repeats', async () => {
      const all = (await allRows()).sort((a, b) => (a.at === b.at ? (a.id < b.id ? 1 : -1) : a.at < b.at ? 1 : -1));
      expect(all.length).toBeGreaterThan(20);
      const seen: string[] = [];
      let cursor = '';
      for (let i = 0; i < 100; i++) {
        const r = await get(`?limit=7${cursor ? `&cursor=${cursor}` : ''}`);
        expect(r.status, r.text).toBe(200);
        seen.push(...r.body.data.entries.map((e: Json) => e.id));
        if (!r.body.data.next) break;
        cursor = r.body.data.next;
      }
      // Rows written while paging (none here: no request above writes) would only be newer.
      expect(seen).toEqual(all.map((r) => r.id));
    });

    it('filters by user (acting or acted upon), action and time range', async () => {
      const cleo = await idOf('cleo');
      const r = await get('?user=CLEO&limit=500');
      expect(r.status).toBe(200);
      const entries = r.body.data.entries as Json[];
      const expected = (await allRows()).filter((x) => x.actor_id === cleo || x.subject_id === cleo);
      expect(entries.map((e) => e.id).sort()).toEqual(expected.map((x) => x.id).sort());
      expect(entries.some((e) => e.action === 'login_failed' && e.actor === 'Cleo')).toBe(true);

      const typed = await get('?user=Nobody.Here');
      expect(typed.body.data.entries.map((e: Json) => e.action)).toEqual(['login_failed']);

      const failures = await get('?action=login_failed,account_lockout&limit=500');
      const actions = new Set(failures.body.data.entries.map((e: Json) => e.action));
      expect([...actions].sort()).toEqual(['account_lockout', 'login_failed']);

      const rows = await allRows();
      const middle = rows.map((x) => x.at).sort()[Math.floor(rows.length / 2)]!;
      const older = await get(`?to=${encodeURIComponent(middle)}&limit=500`);
      expect(older.body.data.entries.length).toBe(rows.filter((x) => x.at < middle).length);
      const newer = await get(`?from=${encodeURIComponent(middle)}&limit=500`);
      expect(newer.body.data.entries.length).toBe(rows.filter((x) => x.at >= middle).length);
      expect(newer.body.data.entries[0].data).toBeTypeOf('object');
    });

    it('is for sys_administrator only, and refuses a bad cursor, time or action list with 400', async () => {
      expect((await get('', f.doraJwt)).status).toBe(403);
      expect((await f.as(null, '/api/core/audit')).status).toBe(401);
      for (const q of ['?cursor=bm9wZQ', '?from=yesterday', '?action=DROP%20TABLE', '?limit=0', '?limit=501']) {
        const r = await get(q);
        expect(r.status, q).toBe(400);
        expect(r.body.success).toBe(false);
      }
    });
  });

  it('prunes rows older than the retention period (default 90 days), and only those', async () => {
    expect(f.inst.config.settings.auditRetentionDays).toBe(90);
    const day = 24 * 3600 * 1000;
    const at = (daysAgo: number) => isoMicros((Date.now() - daysAgo * day) * 1000);
    for (const [id, daysAgo] of [
      ['00000000-0000-0000-0000-000000000091', 91],
      ['00000000-0000-0000-0000-000000000089', 89],
    ] as const) {
      await db()
        .insertInto('audit_log')
        .values({ id, at: at(daysAgo), action: 'login', actor: 'old', data: '{}' })
        .execute();
    }
    const count = (await allRows()).length;
    expect(await f.inst.services.audit.prune()).toBe(1);
    const ids = (await allRows()).map((r) => r.id);
    expect(ids).toHaveLength(count - 1);
    expect(ids).toContain('00000000-0000-0000-0000-000000000089');
    expect(ids).not.toContain('00000000-0000-0000-0000-000000000091');
  });

  it('`platform-core audit` prints the trail with the same filters', async () => {
    const env = {
      DATA_DIR: f.db.dataDir,
      ...(f.db.databaseUrl ? { DATABASE_URL: f.db.databaseUrl } : {}),
    };
    const r = await runCli(['audit', '--user', 'cleo', '--action', 'account_lockout'], { env });
    expect(r.code, said(r)).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z {2}account_lockout {2}cleo \[127\.0\.0\.1 password\]$/);
    const json = await runCli(['audit', '--json', '--limit', '3'], { env });
    expect(json.code, said(json)).toBe(0);
    const entries = json.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(entries).toHaveLength(3);
    expect(entries[0].at >= entries[1].at && entries[1].at >= entries[2].at).toBe(true);
    const bad = await runCli(['audit', '--from', 'last tuesday'], { env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/from is not an ISO 8601 time/);
  });
});
