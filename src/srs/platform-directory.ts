// The user directory apps may read as `platform_users` (db/app-data.ts). On PostgreSQL it is a
// view (migration 003) and always current. SQLite has no permissions, so apps cannot be given a
// view into the platform's file: the platform writes a copy into the apps' file instead, before
// a report runs, when an account changed since the last copy (through this instance, or by
// another process: the change poller of src/auth marks it within about 0.25 s) or the copy is
// older than Settings:AuthCacheSeconds. An app may change its copy; the next rewrite puts
// it back, and the platform never reads it.
//
// The rows are read on the platform's connection and written on a connection of this copy's own
// that opens the apps' file alone: app SQL writes that file's schema (views, triggers on the
// copy), and nothing it writes there runs where the platform's tables are, or can stop the
// platform's own connections from working.
import { sql, type Kysely } from 'kysely';
import type SQLiteDatabase from 'better-sqlite3';
import type { Database } from '../db/schema.js';
import { DIRECTORY_COLUMNS, DIRECTORY_TABLE, directorySelect, sqliteDirectoryTable } from '../db/app-data.js';
import { openSqliteFile } from '../db/sqlite-file.js';

/** SQLITE_BUSY: a report holds the apps' file's write lock; the copy waits for the next run. */
const isBusy = (err: unknown): boolean => /^SQLITE_BUSY/.test(String((err as { code?: unknown }).code ?? ''));

export class PlatformDirectoryCopy {
  private changed = true;
  private copiedAt = 0;

  private apps: SQLiteDatabase.Database | null = null;

  constructor(
    /** The platform's connection: where the accounts are read. */
    private readonly db: Kysely<Database>,
    /** The apps' file: where the copy is written. */
    private readonly appDataFile: string,
    private readonly maxAgeMs: number,
  ) {}

  /** Call after any change to accounts or teams. */
  markChanged(): void {
    this.changed = true;
  }

  /** Rewrites the copy when stale. Never waits for a lock on the event loop: a busy file is skipped. */
  async refreshIfStale(now: number = Date.now()): Promise<'copied' | 'current' | 'busy'> {
    if (!this.changed && now - this.copiedAt < this.maxAgeMs) return 'current';
    // Changes from here on are not in this copy.
    this.changed = false;
    try {
      const rows = (await sql.raw<Record<string, unknown>>(directorySelect('main')).execute(this.db)).rows;
      this.write(rows);
    } catch (err) {
      this.changed = true;
      if (isBusy(err)) return 'busy';
      throw err;
    }
    this.copiedAt = now;
    return 'copied';
  }

  close(): void {
    this.apps?.close();
    this.apps = null;
  }

  /** Replaces the copy's rows in one transaction (synchronous: no other work interleaves). */
  private write(rows: readonly Record<string, unknown>[]): void {
    if (!this.apps) {
      this.apps = openSqliteFile(this.appDataFile, { fileMustExist: true });
      // A report holding the write lock makes the copy skip, not wait on the event loop.
      this.apps.pragma('busy_timeout = 0');
    }
    const apps = this.apps;
    const columns = DIRECTORY_COLUMNS.join(', ');
    apps.exec('BEGIN IMMEDIATE');
    try {
      // Made again first when app SQL dropped it, so the insert below has a table to name.
      apps.exec(sqliteDirectoryTable('main'));
      apps.exec(`DELETE FROM main.${DIRECTORY_TABLE}`);
      const insert = apps.prepare(
        `INSERT INTO main.${DIRECTORY_TABLE} (${columns}) VALUES (${DIRECTORY_COLUMNS.map(() => '?').join(', ')})`,
      );
      for (const row of rows) insert.run(DIRECTORY_COLUMNS.map((c) => row[c] ?? null));
      apps.exec('COMMIT');
    } catch (err) {
      if (apps.inTransaction) apps.exec('ROLLBACK');
      throw err;
    }
  }
}
