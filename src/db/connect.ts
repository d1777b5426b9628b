// Opens the instance database: PostgreSQL when DATABASE_URL is a postgres URL, otherwise an
// embedded SQLite file in the data directory.
import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import pg from 'pg';
import { Kysely, Migrator, PostgresDialect, type MigrationProvider } from 'kysely';
import { sqliteDialectWithImmediateTransactions } from './sqlite-dialect.js';
import { openSqliteFile } from './sqlite-file.js';
import type { Database } from './schema.js';
import { migrations } from './migrations/index.js';
import { APP_SCHEMA, appDataFileFor } from './app-data.js';
import { createPrivateFile, securePrivateDirectory, securePrivateFiles, sqliteFiles, type TightenedMode } from './file-modes.js';

export type DialectName = 'sqlite' | 'postgresql';

export interface DatabaseHandle {
  db: Kysely<Database>;
  dialect: DialectName;
  /** Where the data lives, for messages (never contains a password). */
  description: string;
  /**
   * The platform's tables and, as schema `app`, the apps' data: for the platform's own code
   * that must reach both (the user_cancel hook, the user directory copy). On PostgreSQL the
   * same pool as `db`; on SQLite a second connection with the apps' file attached (kept apart
   * from `db`, whose BEGIN IMMEDIATE would otherwise take the apps' file's write lock too).
   */
  withApps: Kysely<Database>;
  /** SQLite: the apps' own database file (what report SQL and seeds open); null on PostgreSQL. */
  appDataFile: string | null;
  /** Files and directories whose too open modes were tightened on opening (to be logged). */
  tightened: TightenedMode[];
  close(): Promise<void>;
}

export interface DatabaseOptions {
  databaseUrl: string | null;
  dataDir: string;
  /** Connections in the PostgreSQL pool. */
  poolSize?: number;
}

export function openDatabase(opts: DatabaseOptions): DatabaseHandle {
  // Also on PostgreSQL: the data directory holds the initial administrator password and hooks.
  const tightened = securePrivateDirectory(opts.dataDir);
  if (opts.databaseUrl && /^postgres(ql)?:\/\//i.test(opts.databaseUrl)) {
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: opts.poolSize ?? 10 });
    // An idle client losing its connection must not crash the process; the pool replaces it.
    pool.on('error', () => undefined);
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    const u = new URL(opts.databaseUrl);
    return { db, withApps: db, appDataFile: null, dialect: 'postgresql', description: `postgresql://${u.host}${u.pathname}`, tightened, close: () => db.destroy() };
  }
  const file = opts.databaseUrl ? resolve(opts.databaseUrl.replace(/^(sqlite|file):(\/\/)?/i, '')) : join(opts.dataDir, 'platform-core.sqlite');
  // A file named by DATABASE_URL may sit in a shared folder: its folder is created private but
  // an existing one is left as it is; the files themselves are always made private.
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const appDataFile = appDataFileFor(file);
  createPrivateFile(file);
  createPrivateFile(appDataFile);
  const sqlite = openSqliteFile(file);
  const both = openSqliteFile(file);
  both.prepare('ATTACH DATABASE ? AS ' + APP_SCHEMA).run(appDataFile);
  both.pragma(`${APP_SCHEMA}.journal_mode = WAL`);
  tightened.push(...securePrivateFiles([...sqliteFiles(file), ...sqliteFiles(appDataFile)]));
  const db = new Kysely<Database>({ dialect: sqliteDialectWithImmediateTransactions({ database: sqlite }) });
  const withApps = new Kysely<Database>({ dialect: sqliteDialectWithImmediateTransactions({ database: both }) });
  return {
    db,
    withApps,
    appDataFile,
    dialect: 'sqlite',
    description: file,
    tightened,
    close: async () => {
      await withApps.destroy();
      await db.destroy();
    },
  };
}

const provider: MigrationProvider = { getMigrations: async () => migrations };

/** Migrates over the connection that reaches the apps' data too: migrations may move app tables. */
export async function migrateToLatest(handle: Pick<DatabaseHandle, 'withApps'>): Promise<string[]> {
  const migrator = new Migrator({ db: handle.withApps, provider });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
