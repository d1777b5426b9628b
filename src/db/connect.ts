// Opens the instance database: PostgreSQL when DATABASE_URL is a postgres URL, otherwise an
// embedded SQLite file in the data directory.
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createRequire } from 'node:module';
import type SQLiteDatabase from 'better-sqlite3';
import pg from 'pg';
import { Kysely, Migrator, PostgresDialect, type MigrationProvider } from 'kysely';
import { sqliteDialectWithImmediateTransactions } from './sqlite-dialect.js';
import type { Database } from './schema.js';
import { migrations } from './migrations/index.js';

export type DialectName = 'sqlite' | 'postgresql';

export interface DatabaseHandle {
  db: Kysely<Database>;
  dialect: DialectName;
  /** Where the data lives, for messages (never contains a password). */
  description: string;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  databaseUrl: string | null;
  dataDir: string;
  /** Connections in the PostgreSQL pool. */
  poolSize?: number;
}

export function openDatabase(opts: DatabaseOptions): DatabaseHandle {
  if (opts.databaseUrl && /^postgres(ql)?:\/\//i.test(opts.databaseUrl)) {
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: opts.poolSize ?? 10 });
    // An idle client losing its connection must not crash the process; the pool replaces it.
    pool.on('error', () => undefined);
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    const u = new URL(opts.databaseUrl);
    return { db, dialect: 'postgresql', description: `postgresql://${u.host}${u.pathname}`, close: () => db.destroy() };
  }
  const file = opts.databaseUrl ? resolve(opts.databaseUrl.replace(/^(sqlite|file):(\/\/)?/i, '')) : join(opts.dataDir, 'platform-core.sqlite');
  mkdirSync(resolve(file, '..'), { recursive: true });
  const SQLite = loadSqlite();
  const sqlite = new SQLite(file);
  // WAL lets the CLI and the server use the file at the same time; busy_timeout makes a writer
  // wait for the other's lock instead of failing at once.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('synchronous = NORMAL');
  const db = new Kysely<Database>({ dialect: sqliteDialectWithImmediateTransactions({ database: sqlite }) });
  return { db, dialect: 'sqlite', description: file, close: () => db.destroy() };
}

/**
 * better-sqlite3 12 is built against V8's API and crashes on Node 24.19+ (a header change in
 * node_object_wrap.h); 13 uses Node-API with prebuilt binaries but needs Node 22+. Both are
 * installed (13 under the alias better-sqlite3-napi) and the one that fits this Node is loaded.
 */
function loadSqlite(): typeof SQLiteDatabase {
  const require = createRequire(import.meta.url);
  const major = Number(process.versions.node.split('.')[0]);
  return require(major >= 22 ? 'better-sqlite3-napi' : 'better-sqlite3') as typeof SQLiteDatabase;
}

const provider: MigrationProvider = { getMigrations: async () => migrations };

export async function migrateToLatest(db: Kysely<Database>): Promise<string[]> {
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
