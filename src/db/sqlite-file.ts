// Opening the instance's SQLite files: which better-sqlite3 build fits this Node, and the
// connection settings. Shared by the server's connections (connect.ts) and by app SQL (the SRS
// command processes in src/srs/sqlite-commands, and seeds), which open the apps' file through
// the sealed addon and must otherwise behave alike.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type SQLiteDatabase from 'better-sqlite3';

let loaded: typeof SQLiteDatabase | undefined;

/** The better-sqlite3 package this Node loads (its folder under node_modules). */
const sqlitePackage = (): string =>
  Number(process.versions.node.split('.')[0]) >= 22 ? 'better-sqlite3-napi' : 'better-sqlite3';

/**
 * better-sqlite3 12 is built against V8's API and crashes on Node 24.19+ (a header change in
 * node_object_wrap.h); 13 uses Node-API with prebuilt binaries but needs Node 22+. Both are
 * installed (13 under the alias better-sqlite3-napi) and the one that fits this Node is loaded.
 */
export function loadSqlite(): typeof SQLiteDatabase {
  if (loaded) return loaded;
  const pkg = sqlitePackage();
  try {
    // The addon loads at the first database, not at require: check it here, once.
    const SQLite = sqliteModule();
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

/** better-sqlite3's JavaScript, without loading its own addon: the sealed addon's connections
 *  (command processes) never need that one. */
function sqliteModule(): typeof SQLiteDatabase {
  return createRequire(import.meta.url)(sqlitePackage()) as typeof SQLiteDatabase;
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
  return configure(new SQLite(file, opts.fileMustExist ? { fileMustExist: true } : {}));
}

/**
 * Opens the apps' file for app SQL (SRS commands, seeds) through the sealed addon: SQLite built
 * with SQLITE_MAX_ATTACHED=0, so ATTACH and VACUUM (which attaches) fail inside SQLite itself,
 * whatever the SQL has done to the names a check could read. With the addon's defensive mode
 * (no writable schema) and extension loading off (load_extension() is not authorized), the only
 * database file such a connection can reach is the one it was opened on. The file must exist.
 */
export function openAppSqliteFile(file: string): SQLiteDatabase.Database {
  const SQLite = sqliteModule();
  return configure(new SQLite(file, { fileMustExist: true, nativeBinding: sealedAddon() }));
}

let sealedChecked: string | undefined;

/**
 * The sealed addon's path, checked once per process: it loads and refuses ATTACH. Fails closed:
 * without it, app SQL does not run on SQLite at all.
 */
export function sealedAddon(): string {
  if (sealedChecked) return sealedChecked;
  const file = sealedAddonFile();
  const rebuild = `run \`npm run sqlite-addon\` (it builds the sealed SQLite addon for app SQL) and start again`;
  if (!existsSync(file)) throw new Error(`the sealed SQLite addon for app SQL is missing (${file}): ${rebuild}`);
  const SQLite = sqliteModule();
  let probe: SQLiteDatabase.Database;
  try {
    probe = new SQLite(':memory:', { nativeBinding: file });
  } catch (err) {
    throw new Error(`the sealed SQLite addon for app SQL does not load on Node ${process.version}: ${rebuild}`, {
      cause: err,
    });
  }
  try {
    probe.exec("ATTACH ':memory:' AS seal_probe");
  } catch (err) {
    if (/too many attached databases/.test((err as Error).message)) return (sealedChecked = file);
    throw err;
  } finally {
    probe.close();
  }
  throw new Error(`the SQLite addon for app SQL (${file}) allows ATTACH: it is not sealed; ${rebuild}`);
}

/**
 * Where scripts/sqlite-addon.js puts the sealed addon: beside the packages in node_modules, named
 * by package, version, platform and Node ABI (the script names it the same way).
 */
function sealedAddonFile(): string {
  const pkg = sqlitePackage();
  const manifest = createRequire(import.meta.url).resolve(`${pkg}/package.json`);
  const { version } = JSON.parse(readFileSync(manifest, 'utf8')) as { version: string };
  const name = `${pkg}-${version}-${process.platform}-${process.arch}-abi${process.versions.modules}.node`;
  return join(dirname(dirname(manifest)), '.app-sqlite', name);
}

function configure(sqlite: SQLiteDatabase.Database): SQLiteDatabase.Database {
  // WAL lets the CLI and the server use the file at the same time; busy_timeout makes a writer
  // wait for the other's lock instead of failing at once.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('synchronous = NORMAL');
  return sqlite;
}
