// Applies the pending migrations in name order, each in a transaction of its own together with
// its record in kysely_migration (the table Kysely's Migrator keeps): a migration that fails, or
// a process killed part-way, leaves the database at the version before that migration, and the
// next start applies it again from its beginning. Not Kysely's Migrator itself: on SQLite it
// runs migrations outside any transaction.
import { SqliteAdapter, sql, type Kysely } from 'kysely';
import { migrations, type PlatformMigration } from './migrations/index.js';
import type { Database } from './schema.js';

/**
 * Migrates over the connection that reaches the apps' data too (`withApps`): migrations may move
 * app tables. Returns the names of the migrations it applied.
 */
export async function migrateToLatest(handle: { withApps: Kysely<Database> }): Promise<string[]> {
  const db = handle.withApps;
  // The table as Kysely's Migrator makes it (one statement: a crash cannot leave half of it).
  await db.schema
    .createTable('kysely_migration')
    .ifNotExists()
    .addColumn('name', 'varchar(255)', (c) => c.notNull().primaryKey())
    .addColumn('timestamp', 'varchar(255)', (c) => c.notNull())
    .execute();
  const known = Object.keys(migrations).sort();
  const applied = new Set(
    (await sql<{ name: string }>`SELECT name FROM kysely_migration`.execute(db)).rows.map((r) => r.name),
  );
  const unknown = [...applied].filter((name) => !known.includes(name));
  if (unknown.length > 0)
    throw new Error(
      `the database has migrations this version does not know (${unknown.join(', ')}): a newer version made it`,
    );
  const pending = known.filter((name) => !applied.has(name));
  const skipped = pending.find((name) => [...applied].some((done) => done > name));
  if (skipped) throw new Error(`migration ${skipped} was never applied, but later ones were`);
  const onSqlite = db.getExecutor().adapter instanceof SqliteAdapter;
  for (const name of pending) await applyMigration(db, name, migrations[name]!, onSqlite);
  return pending;
}

async function applyMigration(
  db: Kysely<Database>,
  name: string,
  migration: PlatformMigration,
  onSqlite: boolean,
): Promise<void> {
  const appFileStep = onSqlite ? migration.sqliteAppFileStep : undefined;
  // A pragma that does nothing inside a transaction: set around both of them.
  if (appFileStep) await sql`PRAGMA foreign_keys = OFF`.execute(db);
  try {
    // Committed alone: on SQLite a transaction over two files is atomic per file only.
    if (appFileStep) await db.transaction().execute((trx) => appFileStep(trx));
    await db.transaction().execute(async (trx) => {
      await migration.up(trx);
      const timestamp = new Date().toISOString();
      await sql`INSERT INTO kysely_migration ("name", "timestamp") VALUES (${name}, ${timestamp})`.execute(trx);
    });
  } finally {
    if (appFileStep) await sql`PRAGMA foreign_keys = ON`.execute(db);
  }
}
