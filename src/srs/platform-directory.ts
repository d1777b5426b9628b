// The user directory apps may read as `platform_users` (db/app-data.ts). On PostgreSQL it is a
// view (migration 003) and always current. SQLite has no permissions, so apps cannot be given a
// view into the platform's file: the platform writes a copy into the apps' file instead, before
// a report runs, when an account changed since the last copy (through this instance, or by
// another process: the change poller of src/auth marks it within about 0.25 s) or the copy is
// older than Settings:AuthCacheSeconds. An app may change its copy; the next rewrite puts
// it back, and the platform never reads it.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import {
  APP_SCHEMA,
  DIRECTORY_COLUMNS,
  DIRECTORY_TABLE,
  directorySelect,
  sqliteDirectoryTable,
} from '../db/app-data.js';
import { BUSY_TIMEOUT_MS } from '../db/sqlite-file.js';

/** SQLITE_BUSY: a report holds the apps' file's write lock; the copy waits for the next run. */
const isBusy = (err: unknown): boolean => /^SQLITE_BUSY/.test(String((err as { code?: unknown }).code ?? ''));

export class PlatformDirectoryCopy {
  private changed = true;
  private copiedAt = 0;

  constructor(
    /** The connection with the apps' file attached as schema `app`. */
    private readonly withApps: Kysely<Database>,
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
    const columns = DIRECTORY_COLUMNS.join(', ');
    const table = `${APP_SCHEMA}.${DIRECTORY_TABLE}`;
    try {
      await this.withApps.connection().execute(async (conn) => {
        await sql`pragma busy_timeout = 0`.execute(conn);
        try {
          await sql`begin`.execute(conn);
          try {
            await sql.raw(sqliteDirectoryTable(APP_SCHEMA)).execute(conn);
            await sql.raw(`DELETE FROM ${table}`).execute(conn);
            await sql.raw(`INSERT INTO ${table} (${columns}) ${directorySelect('main')}`).execute(conn);
            await sql`commit`.execute(conn);
          } catch (err) {
            await sql`rollback`.execute(conn).catch(() => undefined);
            throw err;
          }
        } finally {
          await sql.raw(`pragma busy_timeout = ${BUSY_TIMEOUT_MS}`).execute(conn);
        }
      });
    } catch (err) {
      this.changed = true;
      if (isBusy(err)) return 'busy';
      throw err;
    }
    this.copiedAt = now;
    return 'copied';
  }
}
