// Report SQL cannot reach the platform's own tables: SRS commands and app seeds
// run with no access to users, tokens, roles, stamps or the signing key, on SQLite (the apps'
// file of their own) and on PostgreSQL (the apps' role), also when the SQL tries to step out of
// its role or transaction first; the demo app still renders; apps read the user directory.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { dropTestDatabase, testDatabaseKinds } from '../support/databases.js';
import { startInstance } from '../support/instance.js';
import { startSrsFixture, type SrsFixture } from './srs-fixture.js';

const PLATFORM_TABLES = [
  'users',
  'teams',
  'team_members',
  'roles',
  'user_roles',
  'tokens',
  'instance_settings',
  'audit_log',
  'login_failures',
  'kysely_migration',
];

/** Ways app SQL might try to get back the platform's rights before reading its tables. */
function escapes(kind: 'sqlite' | 'postgres', platformFile: string): Record<string, string> {
  if (kind === 'sqlite') {
    const file = platformFile.replace(/'/g, "''");
    return {
      attach: `ATTACH DATABASE '${file}' AS p; SELECT * FROM p.users`,
      commit_attach: `COMMIT; ATTACH DATABASE '${file}' AS p; SELECT * FROM p.users`,
      end_attach: `END; ATTACH DATABASE '${file}' AS p; SELECT * FROM p.users`,
      main_users: 'SELECT * FROM main.users',
    };
  }
  return {
    public_users: 'SELECT * FROM public.users',
    reset_role: 'RESET ROLE; SELECT * FROM public.users',
    set_role: 'SET ROLE NONE; SELECT * FROM public.users',
    set_config: "SELECT set_config('role', 'none', true); SELECT * FROM public.users",
    do_block: 'DO $$ BEGIN RESET ROLE; END $$; SELECT * FROM public.users',
    commit: 'COMMIT; SELECT * FROM public.users',
    search_path: 'SET search_path = public; SELECT * FROM users',
    signing_key: "SELECT value FROM public.instance_settings WHERE key = 'jwt_signing_key_v1'",
    // A function of its own that steps back, reads, and restores the role before returning:
    // nothing between statements could see it, so the role must have nothing to step back to.
    function_restoring_role:
      'CREATE FUNCTION leak() RETURNS SETOF text LANGUAGE plpgsql AS $f$ DECLARE r text := current_user; ' +
      "BEGIN RESET ROLE; RETURN QUERY SELECT password_hash::text FROM public.users; EXECUTE format('SET " +
      "LOCAL ROLE %I', r); END $f$; SELECT * FROM leak()",
    set_role_platform: 'SET ROLE postgres; SELECT * FROM public.users',
    session_authorization: 'SET SESSION AUTHORIZATION DEFAULT; SELECT * FROM public.users',
  };
}

describe.each(testDatabaseKinds())('report SQL is kept from the platform tables on %s', (kind) => {
  let f: SrsFixture;
  const srsDir = () => join(f.appsDir, 'demo', 'srs');
  const data = (id: string) => f.as(f.adminJwt, `/api/srs/${id}/data.json?app_name=demo`);

  beforeAll(async () => {
    f = await startSrsFixture(kind);
  });
  afterAll(async () => {
    await f?.inst.stop();
    if (f) await dropTestDatabase(f.db);
  });

  it('SELECT * FROM each platform table fails with 422 command_failed', async () => {
    for (const [i, table] of PLATFORM_TABLES.entries()) {
      writeFileSync(
        join(srsDir(), `${600 + i}-leak.xml`),
        `<srs label="Leak"><def><itm model="command" name="leak">SELECT * FROM ${table}</itm></def></srs>`,
      );
      const r = await data(String(600 + i));
      expect(r.status, `${table}: ${r.text}`).toBe(422);
      expect(r.body.data.code).toBe('command_failed');
    }
  });

  it('stepping out of the role or the transaction first fails too, and leaves nothing behind', async () => {
    const platformFile = kind === 'sqlite' ? f.inst.services.database.description : '';
    const tries = Object.entries(escapes(kind, platformFile));
    for (const [i, [name, text]] of tries.entries()) {
      writeFileSync(
        join(srsDir(), `${700 + i}-escape.xml`),
        `<srs label="Escape ${name}"><def><itm model="command" name="escape">${text}</itm></def></srs>`,
      );
      const r = await data(String(700 + i));
      expect(r.status, `${name}: ${r.text}`).toBe(422);
      expect(r.body.data.code, name).toBe('command_failed');
      expect(r.text).not.toMatch(/argon2|security_stamp|password/i);
    }
    // The command processes and the SRS pool still serve ordinary reports afterwards.
    writeFileSync(
      join(srsDir(), '699-ok.xml'),
      '<srs label="Ok"><def><itm model="command" name="n">SELECT COUNT(*) AS n FROM demo_customers</itm></def></srs>',
    );
    for (let i = 0; i < 4; i++) expect((await data('699')).body.data.n[0].n).toBeGreaterThan(0);
  });

  it.runIf(kind === 'postgres')('runs on a login of the app role: no role to step back to', async () => {
    writeFileSync(
      join(srsDir(), '698-who.xml'),
      '<srs label="Who"><def><itm model="command" name="who" opts="dtsingle">SELECT session_user AS ' +
        "session_user, current_user AS current_user, current_setting('search_path') AS path</itm></def></srs>",
    );
    const who = (await data('698')).body.data.who;
    expect(who.session_user).toMatch(/^platform_core_app_[0-9a-f]{12}$/);
    expect(who.current_user).toBe(who.session_user);
    expect(who.path).toBe('app');
  });

  it('the demo app still renders, from the apps’ own data', async () => {
    const r = await f.as(f.adminJwt, '/api/srs/1/invoice.frx.pdf?app_name=demo&order_id=1004');
    expect(r.status, r.text.slice(0, 300)).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/pdf');
    const html = await f.as(f.adminJwt, '/api/srs/2/sales-by-customer.frx.html?app_name=demo');
    expect(html.status).toBe(200);
    // The sample tables are not beside the platform's.
    const q =
      kind === 'sqlite'
        ? sql`SELECT COUNT(*) AS n FROM sqlite_master WHERE name = 'demo_orders'`
        : sql`SELECT COUNT(*)::int AS n FROM pg_tables WHERE schemaname = 'public' AND tablename = 'demo_orders'`;
    expect(Number(((await q.execute(f.inst.services.database.db)).rows[0] as { n: number }).n)).toBe(0);
  });

  it(
    'apps read the user directory, platform_users, without secret columns, and cannot change the accounts ' +
      'through it',
    async () => {
      writeFileSync(
        join(srsDir(), '650-directory.xml'),
        '<srs label="Directory"><def><itm model="command" name="people">SELECT * FROM platform_users ORDER BY ' +
          'username</itm></def></srs>',
      );
      const r = await data('650');
      expect(r.status, r.text).toBe(200);
      const people = r.body.data.people as Array<Record<string, unknown>>;
      expect(people.map((p) => p.username)).toEqual(expect.arrayContaining(['dora', 'nemo']));
      expect(Object.keys(people[0]!).sort()).toEqual([
        'app_name',
        'created_at',
        'first_name',
        'is_active',
        'last_name',
        'team_id',
        'team_name',
        'user_color',
        'user_id',
        'user_short',
        'username',
      ]);
      // A new account shows up in the next report.
      expect(
        (
          await f.as(f.adminJwt, '/api/core/account/create', {
            method: 'POST',
            json: { username: 'newcomer', password: 'a password for the new one' },
          })
        ).status,
      ).toBe(201);
      expect(((await data('650')).body.data.people as Array<{ username: string }>).map((p) => p.username)).toContain(
        'newcomer',
      );

      writeFileSync(
        join(srsDir(), '651-rename.xml'),
        '<srs label="Rename"><def><itm model="command" name="x">UPDATE platform_users SET username = ' +
          "'mallory' WHERE username = 'dora'</itm></def></srs>",
      );
      const rename = await data('651');
      // PostgreSQL: the view is read-only. SQLite: the copy may change, the accounts never do.
      if (kind === 'postgres') expect(rename.status).toBe(422);
      const dora = await f.inst.services.database.db
        .selectFrom('users')
        .select('username')
        .where('username', '=', 'dora')
        .executeTakeFirst();
      expect(dora?.username).toBe('dora');
    },
  );

  it('app seeds cannot reach the platform tables either: a seed that reads them fails, the server starts', async () => {
    writeFileSync(join(f.appsDir, 'other', 'seed.sql'), 'CREATE TABLE stolen AS SELECT * FROM users;\n');
    const inst = await startInstance(f.db, { APPS_DIR: f.appsDir });
    try {
      expect((await inst.request('/healthz')).status).toBe(200);
      await expect.poll(() => inst.logs(), { timeout: 5000 }).toContain('the seed seed.sql of app other failed');
    } finally {
      await inst.stop();
    }
  });
});
