// Report SQL on PostgreSQL cannot escape the limits the platform sets it: a statement whose SQL
// lifted its own session's statement timeout (or catches the cancel) is stopped from outside at
// the limit, answered 422, and leaves no backend behind however often it is sent; and locks that
// report SQL can take never hold back `platform-core migrate` or a start.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAppLogin } from '../../src/srs/app-role.js';
import { dropTestDatabase, testDatabaseKinds } from '../support/databases.js';
import { killChildren, runCli, said } from '../support/cli-child.js';
import { startSrsFixture, type SrsFixture } from './srs-fixture.js';

const onPostgres = testDatabaseKinds().includes('postgres');

/** SQL that keeps its statement running past the limit, each its own way. */
const UNSTOPPABLE: Record<string, string> = {
  set_local_timeout_off: 'SET LOCAL statement_timeout = 0; SELECT pg_sleep(3600)',
  outside_the_transaction: 'COMMIT; SET statement_timeout = 0; SELECT pg_sleep(3600)',
  cancel_caught:
    'DO $$ BEGIN LOOP BEGIN PERFORM pg_sleep(3600); EXCEPTION WHEN query_canceled THEN NULL; END; END LOOP; END $$',
  function_set_clause:
    "CREATE FUNCTION pg_temp.nap() RETURNS void LANGUAGE sql SET statement_timeout = 0 AS 'SELECT pg_sleep(3600)'; " +
    'SELECT pg_temp.nap()',
  deferred_trigger_at_commit:
    'CREATE TABLE commit_nap (x int); CREATE FUNCTION commit_nap() RETURNS trigger LANGUAGE plpgsql SET ' +
    'statement_timeout = 0 AS $f$ BEGIN PERFORM pg_sleep(3600); RETURN NULL; END $f$; CREATE CONSTRAINT TRIGGER ' +
    'nap AFTER INSERT ON commit_nap DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION commit_nap(); ' +
    'INSERT INTO commit_nap VALUES (1)',
};

describe.runIf(onPostgres)('report SQL and the platform’s limits on PostgreSQL', () => {
  let f: SrsFixture;
  let appRole: string;
  const srsDir = () => join(f.appsDir, 'demo', 'srs');
  const data = (id: number | string) => f.as(f.adminJwt, `/api/srs/${id}/data.json?app_name=demo`);
  const platform = () => f.inst.services.database.db;
  /** The app role's backends now (the tests' platform user is a superuser: it sees them all). */
  const appBackends = async () =>
    (
      await sql<{ pid: number; state: string | null; query: string }>`
        select pid, state, query from pg_stat_activity where usename = ${appRole}`.execute(platform())
    ).rows;
  const define = (id: number, name: string, text: string) =>
    writeFileSync(
      join(srsDir(), `${id}-${name}.xml`),
      `<srs label="${name}"><def><itm model="command" name="${name}">${text}</itm></def></srs>`,
    );

  beforeAll(async () => {
    f = await startSrsFixture('postgres', { Settings__SrsStatementTimeoutSeconds: '1' });
    appRole = (await loadAppLogin(platform())).user;
  });
  afterAll(async () => {
    killChildren();
    await f?.inst.stop();
    if (f) await dropTestDatabase(f.db);
  });

  it(
    'a statement whose SQL lifted its own limit is stopped at the limit (422), and no backend outlives its ' +
      'request, for more such requests than the pool has connections',
    async () => {
      const names = Object.keys(UNSTOPPABLE);
      for (const [i, name] of names.entries()) define(500 + i, name, UNSTOPPABLE[name]!.replace(/&/g, '&amp;'));
      // Two of each at once: ten requests, twice the app role's pool.
      const answers = await Promise.all([...names, ...names].map((name) => data(500 + names.indexOf(name))));
      for (const [i, r] of answers.entries()) {
        const name = names[i % names.length]!;
        expect(r.status, `${name}: ${r.text}`).toBe(422);
        expect(r.body.message, name).toBe(
          `Command "${name}" ran longer than the statement timeout (1 s, Settings:SrsStatementTimeoutSeconds)`,
        );
      }
      // Every statement is gone, and the pool holds no more connections than it may have.
      await expect
        .poll(async () => (await appBackends()).filter((b) => b.state !== 'idle').map((b) => b.query), {
          timeout: 10_000,
        })
        .toEqual([]);
      expect((await appBackends()).length).toBeLessThanOrEqual(5);
      // The next ordinary report works.
      define(510, 'ordinary', 'SELECT COUNT(*) AS n FROM demo_customers');
      const next = await data(510);
      expect(next.status, next.text).toBe(200);
      expect(next.body.data.ordinary[0].n).toBeGreaterThan(0);
    },
  );

  /** The locks of the app role's sessions on what start-up takes: advisory locks, and the start lock's relation. */
  const heldLocks = async () =>
    (
      await sql<{ what: string }>`
        select case when l.locktype = 'advisory' then 'advisory ' || l.classid || ',' || l.objid
                    else 'relation ' || l.relation::regclass::text end as what
        from pg_locks l join pg_stat_activity a on a.pid = l.pid
        where a.usename = ${appRole} and l.granted
          and (l.locktype = 'advisory' or l.relation = to_regclass('public.platform_start_lock'))
        order by 1`.execute(platform())
    ).rows.map((r) => r.what);
  /** Many statements, each within the 1 s limit: the report's transaction outlasts the migrate command. */
  const naps = Array.from({ length: 60 }, () => 'SELECT pg_sleep(0.5)').join('; ');

  /** Runs `platform-core migrate` while the report `id` holds `locks`, which it still holds after. */
  async function migrateWhileHeld(id: number, locks: string[]): Promise<void> {
    const holding = data(id);
    await expect.poll(heldLocks, { timeout: 10_000 }).toEqual(locks);
    const migrate = await runCli(['migrate'], {
      env: { DATA_DIR: f.db.dataDir, DATABASE_URL: f.db.databaseUrl },
      timeoutMs: 20_000,
    });
    expect(migrate.code, said(migrate)).toBe(0);
    // Done while the report still held them: it did not have to give way first.
    expect(await heldLocks()).toEqual(locks);
    // The report has shown what it had to; it is ended rather than waited for (a 422).
    await sql`select pg_terminate_backend(pid) from pg_stat_activity
      where usename = ${appRole} and query like '%pg_sleep(0.5)%'`.execute(platform());
    const r = await holding;
    expect(r.status, r.text.slice(0, 300)).toBe(422);
    // Nothing of it outlives the report.
    expect(await heldLocks()).toEqual([]);
  }

  it('report SQL holding the advisory locks earlier start-ups and migrations took: migrate runs', async () => {
    // Kysely's own migration lock is the advisory lock 3853314791062309107.
    define(
      520,
      'hold_advisory',
      `SELECT pg_advisory_lock(28771, 14); SELECT pg_advisory_lock(3853314791062309107); ${naps}`,
    );
    await migrateWhileHeld(520, ['advisory 28771,14', 'advisory 897169763,17238259']);
  }, 60_000);

  it('report SQL holding what it can of the start lock’s relation: migrate runs', async () => {
    // The strongest lock a statement takes before its rights are checked, kept to the end of the
    // transaction by a view over the relation.
    define(
      521,
      'hold_relation',
      'CREATE TEMP VIEW hold_start AS SELECT * FROM public.platform_start_lock; ' +
        `SELECT pg_relation_size('public.platform_start_lock'); ${naps}`,
    );
    await migrateWhileHeld(521, ['relation platform_start_lock']);
  }, 60_000);
});
