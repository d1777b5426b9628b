// App seeds on PostgreSQL run as report SQL does: nothing a seed leaves in its session reaches
// the reports that reuse its connection, and no lock report SQL can take stops a seed.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropTestDatabase, testDatabaseKinds } from '../support/databases.js';
import { startInstance } from '../support/instance.js';
import { startSrsFixture, type SrsFixture } from './srs-fixture.js';

const onPostgres = testDatabaseKinds().includes('postgres');

describe.runIf(onPostgres)('app seeds on PostgreSQL', () => {
  let f: SrsFixture;
  const srs = (id: number, text: string) => {
    writeFileSync(
      join(f.appsDir, 'demo', 'srs', `${id}-seeded.xml`),
      `<srs label="Seeded"><def><itm model="command" name="c">${text}</itm></def></srs>`,
    );
    return (jwt = f.adminJwt) => f.as(jwt, `/api/srs/${id}/data.json?app_name=demo`);
  };

  beforeAll(async () => {
    f = await startSrsFixture('postgres');
  });
  afterAll(async () => {
    await f?.inst.stop();
    if (f) await dropTestDatabase(f.db);
  });

  it('what a seed leaves in its session never reaches the reports on its connection', async () => {
    const count = srs(900, 'SELECT COUNT(*) AS n FROM demo_customers');
    const real = (await count()).body.data.c[0].n as number;
    expect(real).toBeGreaterThan(0);
    // A temp table shadows the apps' table for unqualified names on the session that made it.
    writeFileSync(
      join(f.appsDir, 'other', 'seed.sql'),
      "CREATE TEMP TABLE demo_customers AS SELECT 'fake'::text AS name;\nSET SESSION search_path = pg_temp;\n",
    );
    const inst = await startInstance(f.db, { APPS_DIR: f.appsDir });
    try {
      expect(inst.logs()).toContain('loaded the sample data of app other');
      const jwt = await inst.jwtFor('dora', 'qben-password-1');
      for (let i = 0; i < 6; i++) {
        const r = await inst.request('/api/srs/900/data.json?app_name=demo', {
          headers: { Authorization: `Bearer ${jwt}` },
        });
        expect(r.status, r.text).toBe(200);
        expect(r.body.data.c).toEqual([{ n: real }]);
      }
    } finally {
      await inst.stop();
    }
  });

  it('report SQL holding the advisory lock seeds once took does not stop a seed', async () => {
    const platform = f.inst.services.database.db;
    const holding = srs(901, "SELECT pg_advisory_xact_lock(hashtext('app_seed:other')); SELECT pg_sleep(60)")();
    await expect
      .poll(
        async () =>
          Number(
            (
              await sql<{ n: number }>`select count(*)::int as n from pg_locks
                where locktype = 'advisory' and granted`.execute(platform)
            ).rows[0]?.n,
          ),
        { timeout: 10_000 },
      )
      .toBeGreaterThan(0);
    writeFileSync(join(f.appsDir, 'other', 'seed.sql'), 'CREATE TABLE IF NOT EXISTS other_seeded (x int);\n');
    const inst = await startInstance(f.db, { APPS_DIR: f.appsDir });
    try {
      expect(inst.logs()).toContain('loaded the sample data of app other');
      expect(inst.logs()).not.toContain('the seed seed.sql of app other failed');
    } finally {
      await inst.stop();
      await sql`select pg_terminate_backend(pid) from pg_stat_activity
        where query like '%pg_sleep(60)%' and pid <> pg_backend_pid()`.execute(platform);
      await holding;
    }
  });
});
