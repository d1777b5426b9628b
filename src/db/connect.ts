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
import { createPrivateFile, securePrivateDirectory, securePrivateFiles, sqliteFiles, type TightenedMode } from './file-modes.js';

export type DialectName = 'sqlite' | 'postgresql';

export interface DatabaseHandle {
  db: Kysely<Database>;
  dialect: DialectName;
  /** Where the data lives, for messages (never contains a password). */
  description: string;
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
    return { db, dialect: 'postgresql', description: `postgresql://${u.host}${u.pathname}`, tightened, close: () => db.destroy() };
  }
  const file = opts.databaseUrl ? resolve(opts.databaseUrl.replace(/^(sqlite|file):(\/\/)?/i, '')) : join(opts.dataDir, 'platform-core.sqlite');
  // A file named by DATABASE_URL may sit in a shared folder: its folder is created private but
  // an existing one is left as it is; the files themselves are always made private.
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  createPrivateFile(file);
  const sqlite = openSqliteFile(file);
  tightened.push(...securePrivateFiles(sqliteFiles(file)));
  const db = new Kysely<Database>({ dialect: sqliteDialectWithImmediateTransactions({ database: sqlite }) });
  return { db, dialect: 'sqlite', description: file, tightened, close: () => db.destroy() };
}

const provider: MigrationProvider = { getMigrations: async () => migrations };

export async function migrateToLatest(db: Kysely<Database>): Promise<string[]> {
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
