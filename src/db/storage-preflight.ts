// Checks, before anything is created or changed, that the data directory and the SQLite files
// can be used. Without it a DATA_DIR that is a file, or a database file that is unreadable, not
// a database, or corrupt, ended the start in a stack trace that did not name the path, and
// only after the start had already changed things: the data directory chmod'ed, the apps' file
// created beside a foreign file, the file switched to WAL (a write into its header). Here each
// such case is a DatabaseOpenError, one line with the path and the cause, and what is found
// is only read (SQLite's read-only connection to a file in WAL mode may create its -wal and
// -shm files; when the file is bad, those are removed again, so nothing is left beside it).
// A valid existing file then goes on to the opening as before, which makes its mode private.
//
// The platform's file gets a full `PRAGMA quick_check` (it holds accounts and tokens, small; a
// start that then migrates and writes must not build on a damaged file). The apps' file may
// hold large report data and nothing at start reads beyond its schema, so it is checked up to
// its schema; damage deeper in it surfaces as the error of the report that reads there.
import {
  accessSync,
  closeSync,
  constants,
  existsSync,
  openSync,
  readSync,
  rmSync,
  statSync,
  type Stats,
} from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { DatabaseOpenError } from './open-error.js';
import { loadSqlite, BUSY_TIMEOUT_MS } from './sqlite-file.js';
import { appDataFileFor } from './app-data.js';

/** The first 16 bytes of every SQLite 3 database file (an empty file is a new database). */
const SQLITE_HEADER = Buffer.from('SQLite format 3\0', 'latin1');
/** How many lines of quick_check's report the message quotes. */
const QUICK_CHECK_LINES = 3;

/** The SQLite file a configuration uses: DATABASE_URL sqlite:<path> or file:<path>, else the data directory's. */
export function sqliteFileFor(databaseUrl: string | null, dataDir: string): string {
  return databaseUrl
    ? resolve(databaseUrl.replace(/^(sqlite|file):(\/\/)?/i, ''))
    : join(dataDir, 'platform-core.sqlite');
}

/** Throws a DatabaseOpenError when the data directory or (on SQLite) a database file cannot be used. */
export function checkStorageBeforeOpening(opts: { databaseUrl: string | null; dataDir: string }): void {
  checkDirectory(opts.dataDir, `the data directory ${shown(opts.dataDir)} (DATA_DIR)`);
  if (opts.databaseUrl && /^postgres(ql)?:\/\//i.test(opts.databaseUrl)) return;
  const file = sqliteFileFor(opts.databaseUrl, opts.dataDir);
  const appsFile = appDataFileFor(file);
  const platform = `the SQLite database ${shown(file)}`;
  const apps = `the apps' SQLite database ${shown(appsFile)}`;
  // Both files before either is opened: a bad one must not get a new partner created beside it.
  const platformExists = checkFileEntry(file, platform);
  const appsExists = checkFileEntry(appsFile, apps);
  if (platformExists) checkDatabaseContent(file, platform, { fullCheck: true });
  if (appsExists) checkDatabaseContent(appsFile, apps, { fullCheck: false });
}

/** A path for a one-line message: control characters (a newline in a name) escaped. */
const shown = (path: string): string =>
  path.replace(/[\x00-\x1f\x7f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);

const fail = (what: string, cause: string): never => {
  throw new DatabaseOpenError(`cannot use ${what}: ${cause}`);
};

function statOrNull(path: string, what: string): Stats | null {
  try {
    return statSync(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    return fail(what, describeFsError(err));
  }
}

function describeFsError(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  if (e.code === 'EACCES' || e.code === 'EPERM') return `permission denied (${e.code})`;
  if (e.code === 'ELOOP') return 'too many symbolic links (ELOOP)';
  return e.code ? `${e.code}${e.syscall ? ` in ${e.syscall}` : ''}` : String(e.message ?? err);
}

/** A directory that is used, or created with its missing parents, by the start. */
function checkDirectory(dir: string, what: string): void {
  const stats = statOrNull(dir, what);
  if (stats === null) {
    checkCreatable(dir, what);
    return;
  }
  if (!stats.isDirectory()) fail(what, `it is ${kindOf(stats)}, not a directory`);
  checkAccess(dir, constants.R_OK | constants.W_OK | constants.X_OK, what, 'it cannot be read and written');
}

/** A missing path: its nearest existing ancestor must be a directory this process may write. */
function checkCreatable(path: string, what: string): void {
  let ancestor = dirname(path);
  let stats = statOrNull(ancestor, what);
  while (stats === null && dirname(ancestor) !== ancestor) {
    ancestor = dirname(ancestor);
    stats = statOrNull(ancestor, what);
  }
  if (stats === null) return; // nothing exists up to the root: mkdir will say why
  if (!stats.isDirectory()) fail(what, `it cannot be created: ${shown(ancestor)} is ${kindOf(stats)}, not a directory`);
  checkAccess(
    ancestor,
    constants.W_OK | constants.X_OK,
    what,
    `it cannot be created: ${shown(ancestor)} is not writable`,
  );
}

function checkAccess(path: string, mode: number, what: string, cause: string): void {
  try {
    accessSync(path, mode);
  } catch (err) {
    fail(what, `${cause}: ${describeFsError(err)}`);
  }
}

function kindOf(stats: Stats): string {
  if (stats.isFile()) return 'a regular file';
  if (stats.isDirectory()) return 'a directory';
  if (stats.isFIFO()) return 'a named pipe';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  return 'not a regular file';
}

/** The file's entry: whether it exists with content to check (an empty file is a new database). */
function checkFileEntry(file: string, what: string): boolean {
  const stats = statOrNull(file, what);
  if (stats === null) {
    checkCreatable(file, what);
    return false;
  }
  if (!stats.isFile()) fail(what, `it is ${kindOf(stats)}, not a database file`);
  checkAccess(file, constants.R_OK | constants.W_OK, what, 'it cannot be read and written');
  // SQLite creates its -wal and -shm files beside the database.
  checkAccess(
    dirname(file),
    constants.W_OK | constants.X_OK,
    what,
    `its directory ${shown(dirname(file))} is not writable`,
  );
  return stats.size > 0;
}

function checkDatabaseContent(file: string, what: string, opts: { fullCheck: boolean }): void {
  if (!startsWithSqliteHeader(file, what))
    fail(what, 'it is not a SQLite database (the file does not start with the SQLite header)');
  // A read-only connection may still create -wal and -shm for a file in WAL mode; when the file
  // turns out bad, those it created (not ones that were there) are removed again.
  const sideFiles = [`${file}-wal`, `${file}-shm`].filter((p) => !existsSync(p));
  try {
    checkWithSqlite(file, opts.fullCheck);
  } catch (err) {
    for (const p of sideFiles) rmSync(p, { force: true });
    const cause = describeSqliteError(err);
    if (cause === null) return; // cannot be judged without writing: the opening itself will tell
    fail(what, cause);
  }
}

function startsWithSqliteHeader(file: string, what: string): boolean {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (err) {
    return fail(what, `it cannot be read: ${describeFsError(err)}`);
  }
  try {
    const head = Buffer.alloc(SQLITE_HEADER.length);
    let read: number;
    try {
      read = readSync(fd, head, 0, head.length, 0);
    } catch (err) {
      return fail(what, `it cannot be read: ${describeFsError(err)}`);
    }
    return read === head.length && head.equals(SQLITE_HEADER);
  } finally {
    closeSync(fd);
  }
}

class CorruptDatabase extends Error {}

function checkWithSqlite(file: string, fullCheck: boolean): void {
  const SQLite = loadSqlite();
  const db = new SQLite(file, { readonly: true, fileMustExist: true });
  try {
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    // Reads the whole schema: a file whose first page or schema is damaged fails here.
    db.prepare('SELECT count(*) FROM sqlite_schema').get();
    if (!fullCheck) return;
    const report = (db.pragma(`quick_check(${QUICK_CHECK_LINES})`) as { quick_check: string }[]).map(
      (r) => r.quick_check,
    );
    if (report.length !== 1 || report[0] !== 'ok') {
      const lines = report.flatMap((r) => r.split('\n')).filter((l) => l.trim() !== '' && !l.startsWith('***'));
      throw new CorruptDatabase(`it is corrupt (quick_check: ${lines.slice(0, QUICK_CHECK_LINES).join('; ')})`);
    }
  } finally {
    db.close();
  }
}

/** The cause for the message, or null for states the read-only check cannot judge. */
function describeSqliteError(err: unknown): string | null {
  if (err instanceof CorruptDatabase) return err.message;
  const code = String((err as { code?: unknown }).code ?? '');
  const message = shown(String((err as Error).message ?? err));
  if (code === 'SQLITE_NOTADB') return `it is not a SQLite database (${message}, ${code})`;
  if (code.startsWith('SQLITE_CORRUPT')) return `it is corrupt (${message}, ${code})`;
  // A WAL or journal that needs recovery (which writes), another process's lock held past the
  // busy timeout: not a fault of the file.
  if (code.startsWith('SQLITE_READONLY') || code.startsWith('SQLITE_BUSY') || code === 'SQLITE_LOCKED') return null;
  if (code.startsWith('SQLITE_')) return `it cannot be read (${message}, ${code})`;
  return `it cannot be read (${message})`;
}
