// The SQLite side of `platform-core backup` and `restore` (the archive around the files is the
// CLI's, src/cli/backup-command.ts).
//
// - A snapshot is `VACUUM INTO`: one statement, so one read transaction, so the copy is the
//   database as of one moment, while the server goes on writing (WAL readers block no writer).
//   The two files (the platform's and the apps') are snapshotted one after the other: two
//   moments, as the platform never writes both in one transaction (docs/operations.md, Backup and restore).
// - A restore replaces a file only while nothing has it open: in WAL mode every connection holds
//   a shared lock on the database file for as long as it is open (that is how SQLite's last
//   connection knows to checkpoint and remove the WAL), so a connection that obtains an
//   exclusive lock at once (busy timeout 0) proves that no server, CLI command or report
//   process of this or any other process uses the file. The lock dies with its process, so a
//   crashed server leaves nothing to clean up (unlike a pid file).
import { closeSync, existsSync, fsyncSync, openSync, renameSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import type SQLiteDatabase from 'better-sqlite3';
import { loadSqlite, openSqliteFile } from './sqlite-file.js';
import { migrations } from './migrations/index.js';
import { DatabaseOpenError } from './open-error.js';

/** Writes a consistent copy of the database `source` to `target` (which must not exist yet). */
export function snapshotSqliteFile(source: string, target: string): { takenAt: Date } {
  const db = openSqliteFile(source, { fileMustExist: true });
  try {
    // The moment of the copy is within the statement; its start is the bound that matters for
    // "everything acknowledged before the backup began is in it".
    const takenAt = new Date();
    db.prepare('VACUUM INTO ?').run(target);
    return { takenAt };
  } finally {
    db.close();
  }
}

/** The migrations this version knows, in order (src/db/migrations/index.ts). */
export const KNOWN_MIGRATIONS: readonly string[] = Object.keys(migrations).sort();

export type SchemaVerdict =
  | { ok: true; applied: string[]; pending: string[] }
  | { ok: false; reason: string; newer: boolean };

/** Whether the migrations applied to a database are ones this version knows. */
export function judgeSchema(applied: string[] | null): SchemaVerdict {
  if (applied === null || applied.length === 0)
    return { ok: false, newer: false, reason: 'it is not a Platform Core database (no applied migrations)' };
  const unknown = applied.filter((m) => !KNOWN_MIGRATIONS.includes(m));
  if (unknown.length > 0) {
    return {
      ok: false,
      newer: true,
      reason:
        `it comes from a newer Platform Core (migration${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')} ` +
        `unknown to this version, whose newest is ${KNOWN_MIGRATIONS.at(-1)}): ` +
        'restore it with that version or a later one',
    };
  }
  return { ok: true, applied, pending: KNOWN_MIGRATIONS.filter((m) => !applied.includes(m)) };
}

/**
 * Checks a database file of a backup: that SQLite reads all of it (`quick_check`) and, for the
 * platform's file, the names in Kysely's migration table; with `judge`, that this version knows
 * them (restore; a backup copies whatever it finds). Returns the applied migrations (null for
 * the apps' file); throws a message for anything else.
 */
export function checkBackupDatabase(file: string, platform: boolean, judge = true): string[] | null {
  const SQLite = loadSqlite();
  let db: SQLiteDatabase.Database;
  try {
    db = new SQLite(file, { readonly: true, fileMustExist: true });
  } catch (err) {
    throw new Error(`it cannot be opened as an SQLite database (${(err as Error).message})`);
  }
  try {
    const report = (db.pragma('quick_check(3)') as { quick_check: string }[]).map((r) => r.quick_check);
    if (report.join() !== 'ok') throw new Error(`it is damaged (quick_check: ${report.join('; ')})`);
    if (!platform) return null;
    const table = db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'kysely_migration'").get();
    const applied = table
      ? (db.prepare('SELECT name FROM kysely_migration ORDER BY name').all() as { name: string }[]).map((r) => r.name)
      : null;
    const verdict = judgeSchema(applied);
    if (!verdict.ok && (judge || !verdict.newer)) throw new Error(verdict.reason);
    return applied;
  } catch (err) {
    const code = String((err as { code?: unknown }).code ?? '');
    if (code === 'SQLITE_NOTADB' || code.startsWith('SQLITE_CORRUPT'))
      throw new Error(`it is not a readable SQLite database (${(err as Error).message})`);
    throw err;
  } finally {
    db.close();
  }
}

/** Writes what is buffered of `path` (a file, or a directory's entries) to the disk. */
export function fsyncPath(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** The sole use of a database file: held until released (see the comment at the top). */
export interface SoleUse {
  release(): void;
}

/**
 * Takes the sole use of the existing database `file`, or throws a DatabaseOpenError when another
 * connection has it open. Holding it, the file is switched out of WAL mode (its WAL checkpointed
 * and removed, no journal file either), so that renaming another file over it leaves nothing of
 * the old one beside the new one.
 */
export function takeSoleUse(file: string): SoleUse {
  const SQLite = loadSqlite();
  const db = new SQLite(file, { fileMustExist: true, timeout: 0 });
  try {
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE');
    db.exec('COMMIT');
    // In exclusive locking mode the lock stays after the transaction, until close.
    db.pragma('journal_mode = MEMORY');
  } catch (err) {
    db.close();
    const code = String((err as { code?: unknown }).code ?? '');
    if (code.startsWith('SQLITE_BUSY') || code === 'SQLITE_LOCKED') {
      throw new DatabaseOpenError(
        `${file} is in use: stop the server (and any platform-core command) that uses it, then restore again`,
      );
    }
    throw new DatabaseOpenError(`cannot lock ${file} to replace it (${(err as Error).message})`, { cause: err });
  }
  // Exclusive mode keeps no shared memory: a -shm left by the last users is stale.
  rmSync(`${file}-shm`, { force: true });
  return { release: () => db.close() };
}

/**
 * Puts `replacement` (a checked database beside `target`, fsynced) in the place of `target`
 * with one rename, and makes the rename durable. The caller holds the target's sole use.
 */
export function installDatabaseFile(replacement: string, target: string): void {
  for (const side of [`${target}-wal`, `${target}-shm`, `${target}-journal`]) {
    if (existsSync(side)) rmSync(side, { force: true });
  }
  renameSync(replacement, target);
  fsyncPath(dirname(target));
}
