// Kysely's SQLite dialect starts transactions with a plain (deferred) BEGIN. With WAL and a
// second process writing (the CLI next to the server), a transaction that reads and then writes
// fails at once with SQLITE_BUSY_SNAPSHOT, which busy_timeout cannot wait out. BEGIN IMMEDIATE
// takes the write lock up front, so the transaction waits its turn instead of failing.
//
// SQLite also ends a transaction by itself on some errors (SQLITE_FULL, an I/O error): Kysely's
// ROLLBACK after it then fails with "cannot rollback - no transaction is active", and that
// error replaced the real one (a full disk answered 500 instead of 503 storage_full).
import {
  CompiledQuery,
  SqliteDialect,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type SqliteDialectConfig,
} from 'kysely';

export function sqliteDialectWithImmediateTransactions(config: SqliteDialectConfig): Dialect {
  const base = new SqliteDialect(config);
  return {
    createAdapter: () => base.createAdapter(),
    createIntrospector: (db) => base.createIntrospector(db),
    createQueryCompiler: () => base.createQueryCompiler(),
    createDriver: (): Driver => {
      const driver = base.createDriver();
      driver.beginTransaction = async (connection: DatabaseConnection) => {
        await connection.executeQuery(CompiledQuery.raw('begin immediate'));
      };
      driver.rollbackTransaction = async (connection: DatabaseConnection) => {
        if (config.database && 'inTransaction' in config.database && !config.database.inTransaction) return;
        await connection.executeQuery(CompiledQuery.raw('rollback'));
      };
      return driver;
    },
  };
}
