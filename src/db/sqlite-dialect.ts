// Kysely's SQLite dialect starts transactions with a plain (deferred) BEGIN. With WAL and a
// second process writing (the CLI next to the server), a transaction that reads and then writes
// fails at once with SQLITE_BUSY_SNAPSHOT, which busy_timeout cannot wait out. BEGIN IMMEDIATE
// takes the write lock up front, so the transaction waits its turn instead of failing.
import { CompiledQuery, SqliteDialect, type DatabaseConnection, type Dialect, type Driver, type SqliteDialectConfig } from 'kysely';

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
      return driver;
    },
  };
}
