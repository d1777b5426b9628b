// Opening the instance's SQLite file: which better-sqlite3 build fits this Node, and the
// connection settings. Shared by the server's connection (connect.ts) and the SRS command
// processes (src/srs/sqlite-commands), which open the same file and must behave alike.
import { createRequire } from 'node:module';
import type SQLiteDatabase from 'better-sqlite3';

let loaded: typeof SQLiteDatabase | undefined;

/**
 * better-sqlite3 12 is built against V8's API and crashes on Node 24.19+ (a header change in
 * node_object_wrap.h); 13 uses Node-API with prebuilt binaries but needs Node 22+. Both are
 * installed (13 under the alias better-sqlite3-napi) and the one that fits this Node is loaded.
 */
export function loadSqlite(): typeof SQLiteDatabase {
  if (loaded) return loaded;
  const require = createRequire(import.meta.url);
  const major = Number(process.versions.node.split('.')[0]);
  const pkg = major >= 22 ? 'better-sqlite3-napi' : 'better-sqlite3';
  try {
    // The addon loads at the first database, not at require: check it here, once.
    const SQLite = require(pkg) as typeof SQLiteDatabase;
    new SQLite(':memory:').close();
    loaded = SQLite;
    return SQLite;
  } catch (err) {
    // npm builds only the addon of the Node that ran `npm ci` (scripts/sqlite-addon.js): after
    // switching Node versions the other one may be missing or built for another ABI.
    throw new Error(
      `${pkg}'s native addon does not load on Node ${process.version}: run \`npm run sqlite-addon\` ` +
        `(builds the one this Node needs) and start again`,
      { cause: err },
    );
  }
}

/** How long a writer waits for another connection's lock before SQLITE_BUSY. */
export const BUSY_TIMEOUT_MS = 5000;

export interface OpenSqliteOptions {
  /** Refuse to create the file (a second connection to an existing database). */
  fileMustExist?: boolean;
}

/** Opens `file` with the instance's connection settings. */
export function openSqliteFile(file: string, opts: OpenSqliteOptions = {}): SQLiteDatabase.Database {
  const SQLite = loadSqlite();
  const sqlite = new SQLite(file, opts.fileMustExist ? { fileMustExist: true } : {});
  // WAL lets the CLI and the server use the file at the same time; busy_timeout makes a writer
  // wait for the other's lock instead of failing at once.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('synchronous = NORMAL');
  return sqlite;
}
