// Opens the instance database: PostgreSQL when DATABASE_URL is a postgres URL, otherwise an
// embedded SQLite file in the data directory.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { Kysely } from 'kysely';
import { sqliteDialectWithImmediateTransactions } from './sqlite-dialect.js';
import { openSqliteFile } from './sqlite-file.js';
import type { Database } from './schema.js';
import { APP_SCHEMA, appDataFileFor } from './app-data.js';
import { createPgPool, type PoolUse } from './pg-pool.js';
import { PlatformPostgresDialect, withPgStartupLock } from './startup-lock.js';
import { withFileStartupLock } from './file-start-lock.js';
import { StorageHealth } from './storage-health.js';
import { checkStorageBeforeOpening, sqliteFileFor } from './storage-preflight.js';
import {
  createPrivateFile,
  securePrivateDirectory,
  securePrivateFiles,
  sqliteFiles,
  type TightenedMode,
} from './file-modes.js';

// Start-up code opens and then migrates: both from here.
export { migrateToLatest } from './migrate.js';

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
  /**
   * SQLite: why the apps' file could not be attached to `withApps` (null when it was). App SQL
   * writes the apps' file's schema, and SQLite refuses to attach a schema it finds malformed
   * (a view of `main.users`, say): the platform starts anyway, and only what needs the apps'
   * data from the platform's side (the cancel hook, a migration that moves app tables) fails.
   */
  appsAttachError: string | null;
  /** Files and directories whose too open modes were tightened on opening (to be logged). */
  tightened: TightenedMode[];
  /**
   * Runs start-up work (migrations, bootstrap) alone: on PostgreSQL under a lock on a relation of
   * the platform's that other instances starting at the same time wait for, and that report SQL
   * cannot take (startup-lock.ts; migrations take no lock of their own there; its first connection
   * failing is a DatabaseOpenError naming the host), on SQLite under a lock file next to the
   * database (file-start-lock.ts).
   */
  exclusiveStart<T>(work: () => Promise<T>): Promise<T>;
  /** SQLite: whether its disk can take writes (readiness). */
  storage: StorageHealth;
  /** PostgreSQL: the pool's connections now (metrics); null on SQLite, whose two connections
   *  are opened once and never wait for each other in a pool. */
  poolUse: (() => PoolUse) | null;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  databaseUrl: string | null;
  dataDir: string;
  /** Connections in the PostgreSQL pool. */
  poolSize?: number;
  /** PostgreSQL: longest wait for a connection (Settings:DatabaseConnectTimeoutSeconds). */
  connectTimeoutMs?: number;
  /** PostgreSQL: longest query of the platform's own (Settings:DatabaseStatementTimeoutSeconds). */
  statementTimeoutMs?: number;
}

/** The defaults of the two settings above, for callers without a configuration. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 5_000;
export const DEFAULT_STATEMENT_TIMEOUT_MS = 10_000;
/** How long a starting instance waits for another's migrations and bootstrap. */
const STARTUP_LOCK_WAIT_MS = 5 * 60_000;

export function openDatabase(opts: DatabaseOptions): DatabaseHandle {
  // Nothing is created or changed before the data directory and the SQLite files pass.
  checkStorageBeforeOpening(opts);
  // Also on PostgreSQL: the data directory holds the initial administrator password and hooks.
  const tightened = securePrivateDirectory(opts.dataDir);
  if (opts.databaseUrl && /^postgres(ql)?:\/\//i.test(opts.databaseUrl)) {
    const statementTimeoutMs = opts.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS;
    const { pool, use } = createPgPool({
      connectionString: opts.databaseUrl,
      max: opts.poolSize ?? 10,
      connectTimeoutMs: opts.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
      statementTimeoutMs,
      // The server cancels a slow statement itself; this is for a server that does not answer.
      queryTimeoutMs: statementTimeoutMs,
      applicationName: 'platform-core',
    });
    const db = new Kysely<Database>({ dialect: new PlatformPostgresDialect({ pool }) });
    const u = new URL(opts.databaseUrl);
    const description = `postgresql://${u.host}${u.pathname}`;
    const lock = {
      connectionString: opts.databaseUrl,
      connectTimeoutMs: opts.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
      maxWaitMs: STARTUP_LOCK_WAIT_MS,
      description,
    };
    return {
      db,
      withApps: db,
      appDataFile: null,
      appsAttachError: null,
      dialect: 'postgresql',
      description,
      tightened,
      exclusiveStart: (work) => withPgStartupLock(lock, work),
      storage: new StorageHealth(null),
      poolUse: use,
      close: () => db.destroy(),
    };
  }
  const file = sqliteFileFor(opts.databaseUrl, opts.dataDir);
  // A file named by DATABASE_URL may sit in a shared folder: its folder is created private but
  // an existing one is left as it is; the files themselves are always made private.
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const appDataFile = appDataFileFor(file);
  createPrivateFile(file);
  createPrivateFile(appDataFile);
  const sqlite = openSqliteFile(file);
  const both = openSqliteFile(file);
  const appsAttachError = attachApps(both, appDataFile);
  tightened.push(...securePrivateFiles([...sqliteFiles(file), ...sqliteFiles(appDataFile)]));
  const db = new Kysely<Database>({ dialect: sqliteDialectWithImmediateTransactions({ database: sqlite }) });
  const withApps = new Kysely<Database>({ dialect: sqliteDialectWithImmediateTransactions({ database: both }) });
  return {
    db,
    withApps,
    appDataFile,
    dialect: 'sqlite',
    description: file,
    appsAttachError,
    tightened,
    exclusiveStart: (work) => withFileStartupLock(`${file}.start-lock`, STARTUP_LOCK_WAIT_MS, work),
    storage: new StorageHealth(dirname(file)),
    poolUse: null,
    close: async () => {
      await withApps.destroy();
      await db.destroy();
    },
  };
}

/** Attaches the apps' file to `connection` as schema `app`: null, or why SQLite refused. */
function attachApps(connection: ReturnType<typeof openSqliteFile>, appDataFile: string): string | null {
  try {
    connection.prepare(`ATTACH DATABASE ? AS ${APP_SCHEMA}`).run(appDataFile);
    connection.pragma(`${APP_SCHEMA}.journal_mode = WAL`);
    return null;
  } catch (err) {
    return (err as Error).message;
  }
}
