// The PostgreSQL cancel hook is the operator's platform_hooks.user_cancel(text): report SQL can
// create nothing in its schema, and a user_cancel it plants in schema `app` (where it may create
// functions) is never called and never stops a cancellation. Migration 008 moves a hook the
// operator installed in `app` before into platform_hooks, and leaves one the app role owns.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Migrator, sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../../src/accounts/account-service.js';
import { CLI_ACTOR } from '../../src/audit/audit-actions.js';
import { migrateToLatest, openDatabase } from '../../src/db/connect.js';
import { migrations } from '../../src/db/migrations/index.js';
import { loadAppLogin } from '../../src/srs/app-role.js';
import { createTestDatabase, dropTestDatabase, testDatabaseKinds } from '../support/databases.js';
import { startSrsFixture, type SrsFixture } from './srs-fixture.js';
import { passwordFor } from '../support/instance.js';
import { commandFailureCause } from './platform-snapshot.js';

const onPostgres = testDatabaseKinds().includes('postgres');

/** What report SQL plants: the hook's own signature, and an overload that would make a call of
 *  app.user_cancel(text) ambiguous. Either would fail the cancellation if it were called. */
const PLANTED =
  "CREATE FUNCTION user_cancel(p text) RETURNS void LANGUAGE plpgsql AS $f$ BEGIN RAISE EXCEPTION 'planted " +
  "hook ran'; END $f$; CREATE FUNCTION user_cancel(p text, n int DEFAULT 0) RETURNS void LANGUAGE plpgsql AS $f$ " +
  "BEGIN RAISE EXCEPTION 'planted overload ran'; END $f$";

const OPERATOR_HOOK = `create function platform_hooks.user_cancel(p_username text) returns void language plpgsql as $$
  begin insert into cancel_log (username, cancelled_by) values (p_username, 'operator hook'); end $$`;

describe.runIf(onPostgres)('the cancel hook on PostgreSQL', () => {
  let f: SrsFixture;
  const platform = (): Kysely<any> => f.inst.services.database.db;
  const srs = (id: number, text: string) => {
    writeFileSync(
      join(f.appsDir, 'demo', 'srs', `${id}-hook.xml`),
      `<srs label="Hook"><def><itm model="command" name="hook">${text}</itm></def></srs>`,
    );
    return f.as(f.adminJwt, `/api/srs/${id}/data.json?app_name=demo`);
  };
  const cancel = async (username: string) => {
    await createAccount(platform(), { username, password: passwordFor(username) }, CLI_ACTOR);
    return f.as(f.adminJwt, `/api/core/account/cancel/${username}`, { method: 'POST' });
  };
  const isActive = async (username: string) =>
    (
      await platform()
        .selectFrom('users')
        .select('is_active')
        .where('username', '=', username)
        .executeTakeFirstOrThrow()
    ).is_active;
  const logged = async () =>
    (await platform().selectFrom('cancel_log').selectAll().orderBy('username').execute()) as Array<
      Record<string, string | null>
    >;

  beforeAll(async () => {
    f = await startSrsFixture('postgres');
    await sql`create table cancel_log (username text, cancelled_by text)`.execute(platform());
  });
  afterAll(async () => {
    await f?.inst.stop();
    if (f) await dropTestDatabase(f.db);
  });

  it('runs the operator’s platform_hooks.user_cancel(text) in the cancel transaction, not the file', async () => {
    await sql.raw(OPERATOR_HOOK).execute(platform());
    const hooks = join(f.db.dataDir, 'hooks');
    mkdirSync(hooks, { recursive: true });
    writeFileSync(join(hooks, 'user_cancel.sql'), 'insert into no_such_table values (1);'); // must not run
    try {
      const r = await cancel('olive');
      expect(r.status, r.text).toBe(200);
      expect(await logged()).toEqual([{ username: 'olive', cancelled_by: 'operator hook' }]);
    } finally {
      rmSync(join(hooks, 'user_cancel.sql'));
      await sql`drop function platform_hooks.user_cancel(text)`.execute(platform());
      await sql`delete from cancel_log`.execute(platform());
    }
  });

  it('report SQL cannot create a function, or anything else, in platform_hooks', async () => {
    const r = await srs(
      601,
      "CREATE FUNCTION platform_hooks.user_cancel(p text) RETURNS void LANGUAGE sql AS 'SELECT 1'",
    );
    expect(r.status, r.text).toBe(422);
    expect(commandFailureCause(f.inst.logs(), r.headers.get('x-request-id')).code).toBe('42501');
    const made = await sql<{ n: number }>`
      select count(*)::int as n from pg_proc p join pg_namespace n on n.oid = p.pronamespace
      where n.nspname = 'platform_hooks'`.execute(platform());
    expect(made.rows[0]!.n).toBe(0);
  });

  it(
    'functions report SQL plants as app.user_cancel are never called: cancellation works without a hook, ' +
      'with the file hook, and beside the operator’s hook, and each is logged as not run',
    async () => {
      const planted = await srs(602, PLANTED);
      expect(planted.status, planted.text).toBe(200);

      const none = await cancel('pia');
      expect(none.status, none.text).toBe(200);
      expect(await isActive('pia')).toBe(0);

      const hooks = join(f.db.dataDir, 'hooks');
      mkdirSync(hooks, { recursive: true });
      writeFileSync(
        join(hooks, 'user_cancel.sql'),
        "insert into cancel_log (username, cancelled_by) values (:username, 'file hook');",
      );
      try {
        const withFile = await cancel('quin');
        expect(withFile.status, withFile.text).toBe(200);
      } finally {
        rmSync(join(hooks, 'user_cancel.sql'));
      }

      await sql.raw(OPERATOR_HOOK).execute(platform());
      try {
        const beside = await cancel('rhea');
        expect(beside.status, beside.text).toBe(200);
      } finally {
        await sql`drop function platform_hooks.user_cancel(text)`.execute(platform());
      }
      expect(await logged()).toEqual([
        { username: 'quin', cancelled_by: 'file hook' },
        { username: 'rhea', cancelled_by: 'operator hook' },
      ]);
      expect(f.inst.logs()).toMatch(/not run: app\.user_cancel\(text,integer\): the cancel hook is platform_hooks/);
      expect(f.inst.logs()).toMatch(/not run: app\.user_cancel\(text\): the cancel hook is platform_hooks/);
    },
  );
});

describe.runIf(onPostgres)('migration 008 on PostgreSQL', () => {
  const BEFORE = '007-console-indexes';

  it.each([
    ['the platform’s user', 'moves it into platform_hooks', null],
    ['the app role', 'leaves it in app', 'app'],
  ])('a user_cancel(text) in app owned by %s: %s', async (_owner, _what, ownedByApp) => {
    const db = await createTestDatabase('postgres');
    const handle = openDatabase({ databaseUrl: db.databaseUrl ?? null, dataDir: db.dataDir, poolSize: 2 });
    try {
      const migrator = new Migrator({ db: handle.withApps, provider: { getMigrations: async () => migrations } });
      const { error } = await migrator.migrateTo(BEFORE);
      if (error) throw error;
      await handle.db.transaction().execute(async (trx) => {
        if (ownedByApp) {
          const { user } = await loadAppLogin(trx);
          await sql`select set_config('role', ${user}, true)`.execute(trx);
        }
        await sql`create function app.user_cancel(p text) returns void language sql as 'select 1'`.execute(trx);
      });
      await migrateToLatest(handle);
      const where = await sql<{ hooks: boolean; app: boolean }>`
        select to_regprocedure('platform_hooks.user_cancel(text)') is not null as hooks,
               to_regprocedure('app.user_cancel(text)') is not null as app`.execute(handle.db);
      expect(where.rows[0]).toEqual(ownedByApp ? { hooks: false, app: true } : { hooks: true, app: false });
    } finally {
      await handle.close();
      await dropTestDatabase(db);
    }
  });
});
