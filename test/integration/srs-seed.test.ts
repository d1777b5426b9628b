// The demo app's sample data (apps/demo/seed.sql) on SQLite and PostgreSQL: loaded on first
// start, not again on a restart (rows deleted meanwhile stay deleted), again when the file
// changes; a broken seed is logged and rolled back and the server still starts.
import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropTestDatabase, testDatabaseKinds } from '../support/databases.js';
import { startInstance } from '../support/instance.js';
import { startSrsFixture, type SrsFixture } from './srs-fixture.js';

describe.each(testDatabaseKinds())('demo seed on %s', (kind) => {
  let f: SrsFixture;
  beforeAll(async () => {
    f = await startSrsFixture(kind);
  });
  afterAll(async () => {
    await f?.inst.stop();
    if (f) await dropTestDatabase(f.db);
  });

  const counts = async (db = f.inst.services.database.withApps) => {
    const n = async (t: string) =>
      Number(
        (await sql<{ n: number | string }>`SELECT COUNT(*) AS n FROM ${sql.table(`app.${t}`)}`.execute(db)).rows[0]?.n,
      );
    return {
      customers: await n('demo_customers'),
      products: await n('demo_products'),
      orders: await n('demo_orders'),
      lines: await n('demo_order_lines'),
    };
  };

  it('loads the sample tables on first start', async () => {
    expect(await counts()).toEqual({ customers: 8, products: 12, orders: 14, lines: 37 });
    const key = await f.inst.services.database.db
      .selectFrom('instance_settings')
      .select('value')
      .where('key', '=', 'app_seed:demo')
      .executeTakeFirst();
    expect(key?.value).toMatch(/^[0-9a-f]{64}$/);
  });

  it('does not load it again on restart, but does when the file changes', async () => {
    await sql`DELETE FROM app.demo_order_lines WHERE order_id = 1014`.execute(f.inst.services.database.withApps);
    const restarted = await startInstance(f.db, { APPS_DIR: f.appsDir });
    try {
      expect((await counts(restarted.services.database.withApps)).lines).toBe(35); // order 1014 had two lines
    } finally {
      await restarted.stop();
    }
    appendFileSync(join(f.appsDir, 'demo', 'seed.sql'), '\n-- a new version of the seed\n');
    const updated = await startInstance(f.db, { APPS_DIR: f.appsDir });
    try {
      // Idempotent: what exists stays, what is missing comes back.
      expect(await counts(updated.services.database.withApps)).toEqual({
        customers: 8,
        products: 12,
        orders: 14,
        lines: 37,
      });
    } finally {
      await updated.stop();
    }
  });

  it('a failing seed is rolled back and logged; the server starts anyway', async () => {
    writeFileSync(
      join(f.appsDir, 'other', 'seed.sql'),
      'CREATE TABLE seed_probe (x INTEGER);\nINSERT INTO no_such_table VALUES (1);\n',
    );
    const inst = await startInstance(f.db, { APPS_DIR: f.appsDir });
    try {
      expect((await inst.request('/healthz')).status).toBe(200);
      const probe =
        kind === 'sqlite'
          ? await sql<{ n: number }>`SELECT COUNT(*) AS n FROM app.sqlite_master WHERE name = 'seed_probe'`.execute(
              inst.services.database.withApps,
            )
          : await sql<{ n: number }>`SELECT COUNT(*)::int AS n FROM pg_tables WHERE tablename = 'seed_probe'`.execute(
              inst.services.database.db,
            );
      expect(Number(probe.rows[0]?.n)).toBe(0);
      await expect
        .poll(() => inst.logs(), { timeout: 5000 })
        .toContain('the seed seed.sql of app other failed; nothing of it was applied');
    } finally {
      await inst.stop();
    }
  });
});
