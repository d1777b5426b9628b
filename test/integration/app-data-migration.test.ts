// Upgrading a database whose app tables sit beside the platform's (as seeds and app SQL left
// them before issue 13): migration 003 moves them to the apps' side with their rows, indexes and
// triggers (and on SQLite their views), so reports keep their data; and on SQLite a move
// interrupted between its two steps completes at the next start.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Migrator, sql, type Kysely } from 'kysely';
import { createTestDatabase, dropTestDatabase, testDatabaseKinds, type TestDatabase } from '../support/databases.js';
import { migrateToLatest, openDatabase, type DatabaseHandle } from '../../src/db/connect.js';
import { migrations } from '../../src/db/migrations/index.js';

const BEFORE_APP_DATA = '002-login-failures';

/** Tables an app made beside the platform's: a parent, a child with a foreign key, an index, a trigger and a view. */
const OLD_APP_SCHEMA = [
  'CREATE TABLE shop_customers (id INTEGER PRIMARY KEY, name VARCHAR(50) NOT NULL)',
  'CREATE TABLE shop_orders (id INTEGER PRIMARY KEY, customer_id INTEGER NOT NULL REFERENCES shop_customers ' +
    '(id), total NUMERIC(10, 2) NOT NULL)',
  'CREATE INDEX shop_orders_customer ON shop_orders (customer_id)',
  "INSERT INTO shop_customers (id, name) VALUES (1, 'Ada'), (2, 'Grace')",
  'INSERT INTO shop_orders (id, customer_id, total) VALUES (10, 1, 12.5), (11, 2, 7), (12, 1, 1)',
  'CREATE VIEW shop_totals AS SELECT customer_id, SUM(total) AS total FROM shop_orders GROUP BY customer_id',
];
const SQLITE_TRIGGER =
  'CREATE TRIGGER shop_orders_audit AFTER INSERT ON shop_orders BEGIN UPDATE shop_customers SET name = name ' +
  "|| '*' WHERE id = NEW.customer_id; END";

async function migrateTo(handle: DatabaseHandle, target: string): Promise<void> {
  const migrator = new Migrator({ db: handle.withApps, provider: { getMigrations: async () => migrations } });
  const { error } = await migrator.migrateTo(target);
  if (error) throw error;
}

const rows = async (db: Kysely<any>, query: string) => (await sql.raw<Record<string, unknown>>(query).execute(db)).rows;

describe.each(testDatabaseKinds())('migration 003 moves earlier app tables on %s', (kind) => {
  let db: TestDatabase;
  let handle: DatabaseHandle;
  const open = () => openDatabase({ databaseUrl: db.databaseUrl ?? null, dataDir: db.dataDir, poolSize: 2 });

  beforeEach(async () => {
    db = await createTestDatabase(kind);
    handle = open();
    await migrateTo(handle, BEFORE_APP_DATA);
    for (const statement of [...OLD_APP_SCHEMA, ...(kind === 'sqlite' ? [SQLITE_TRIGGER] : [])])
      await sql.raw(statement).execute(handle.db);
  });
  afterEach(async () => {
    await handle?.close();
    if (db) await dropTestDatabase(db);
  });

  it(
    'moves them with their rows and indexes (on SQLite ' + 'views too); the platform keeps only its own tables',
    async () => {
      await migrateToLatest(handle);
      const appTables =
        kind === 'sqlite'
          ? await rows(handle.withApps, "SELECT name FROM app.sqlite_master WHERE name LIKE 'shop%' ORDER BY name")
          : await rows(
              handle.db,
              'SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE ' +
                "n.nspname = 'app' AND c.relname LIKE 'shop%' ORDER BY 1",
            );
      // PostgreSQL: views stay where they are; one over the platform's tables, moved into `app`,
      // would let report SQL read them with its owner's rights. (SQLite cannot make such a view
      // in the apps' file at all, so there every view that can move does.)
      expect(appTables.map((r) => r.name)).toEqual(
        kind === 'sqlite'
          ? ['shop_customers', 'shop_orders', 'shop_orders_audit', 'shop_orders_customer', 'shop_totals']
          : ['shop_customers', 'shop_customers_pkey', 'shop_orders', 'shop_orders_customer', 'shop_orders_pkey'],
      );
      const left =
        kind === 'sqlite'
          ? await rows(handle.db, "SELECT name FROM main.sqlite_master WHERE name LIKE 'shop%'")
          : await rows(
              handle.db,
              "SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' AND tablename LIKE 'shop%'",
            );
      expect(left).toEqual([]);
      const totals = kind === 'sqlite' ? 'app.shop_totals' : 'public.shop_totals';
      expect(await rows(handle.withApps, `SELECT customer_id, total FROM ${totals} ORDER BY customer_id`)).toEqual([
        { customer_id: 1, total: kind === 'sqlite' ? 13.5 : '13.50' },
        { customer_id: 2, total: kind === 'sqlite' ? 7 : '7.00' },
      ]);
      // The foreign key came along.
      await expect(
        sql.raw('INSERT INTO app.shop_orders (id, customer_id, total) VALUES (13, 99, 1)').execute(handle.withApps),
      ).rejects.toThrow(/foreign key/i);
      // Migrating again changes nothing.
      expect(await migrateToLatest(handle)).toEqual([]);
    },
  );

  it.runIf(kind === 'sqlite')('an interrupted move (copied, not yet removed) completes at the next start', async () => {
    // The state after the copy step committed and the process died before the removal.
    for (const statement of [
      'CREATE TABLE app.shop_customers (id INTEGER PRIMARY KEY, name VARCHAR(50) NOT NULL)',
      'CREATE TABLE app.shop_orders (id INTEGER PRIMARY KEY, customer_id INTEGER NOT NULL REFERENCES ' +
        'shop_customers (id), total NUMERIC(10, 2) NOT NULL)',
      'INSERT INTO app.shop_customers SELECT * FROM main.shop_customers',
      'INSERT INTO app.shop_orders SELECT * FROM main.shop_orders',
    ]) {
      await sql.raw(statement).execute(handle.withApps);
    }
    await migrateToLatest(handle);
    expect(
      await rows(handle.db, "SELECT name FROM main.sqlite_master WHERE type = 'table' AND name LIKE 'shop%'"),
    ).toEqual([]);
    expect(await rows(handle.withApps, 'SELECT COUNT(*) AS n FROM app.shop_orders')).toEqual([{ n: 3 }]);
  });

  it.runIf(kind === 'sqlite')(
    'a table in both files with different rows stops the migration, and nothing is lost',
    async () => {
      await sql.raw('CREATE TABLE app.shop_orders (id INTEGER PRIMARY KEY)').execute(handle.withApps);
      await expect(migrateToLatest(handle)).rejects.toThrow(/shop_orders is in both/);
      expect(await rows(handle.db, 'SELECT COUNT(*) AS n FROM main.shop_orders')).toEqual([{ n: 3 }]);
      expect(await rows(handle.withApps, "SELECT name FROM app.sqlite_master WHERE name = 'shop_customers'")).toEqual(
        [],
      );
    },
  );
});
