// Instances starting at the same moment on one PostgreSQL database take turns for the start-up
// work (migrations, the default team and roles, the first administrator): without it two of
// them race on the same inserts and one exits on a unique violation. A session-level advisory
// lock on a connection of its own serialises them; the others wait, bounded, then find the
// work done. SQLite has the same with a lock file (file-start-lock.ts).
import pg from 'pg';
import { DatabaseOpenError } from './open-error.js';

/** Arbitrary, fixed: the two int4 keys of the lock ("pc" and 14), scoped to the database. */
const LOCK_KEYS = [0x7063, 14] as const;
const POLL_MS = 100;

export interface StartupLockOptions {
  connectionString: string;
  connectTimeoutMs: number;
  /** How long to wait for another instance's start-up work. */
  maxWaitMs: number;
  /** For messages: where the database is (no password). */
  description: string;
}

export async function withPgStartupLock<T>(opts: StartupLockOptions, work: () => Promise<T>): Promise<T> {
  const client = new pg.Client({
    connectionString: opts.connectionString,
    connectionTimeoutMillis: opts.connectTimeoutMs,
    application_name: 'platform-core-startup',
  });
  // A connection dying while we wait must become a rejected query, not an unheard 'error' event.
  client.on('error', () => undefined);
  try {
    await client.connect();
  } catch (err) {
    // The first connection of a start: the administrator needs where and why, in one line.
    const why =
      err instanceof pg.DatabaseError
        ? err.message
        : `${(err as Error).message} (connect timeout ${opts.connectTimeoutMs / 1000} s, ` +
          `Settings:DatabaseConnectTimeoutSeconds)`;
    throw new DatabaseOpenError(`cannot connect to the database ${opts.description}: ${why.replace(/\s+/g, ' ')}`, {
      cause: err,
    });
  }
  try {
    const deadline = Date.now() + opts.maxWaitMs;
    // Polled with try-lock rather than a blocking pg_advisory_lock: each query is short, so
    // the statement timeout never cuts a long wait and the wait has a limit of our own.
    for (;;) {
      const { rows } = await client.query<{ locked: boolean }>('select pg_try_advisory_lock($1, $2) as locked', [
        ...LOCK_KEYS,
      ]);
      if (rows[0]?.locked) break;
      if (Date.now() > deadline) {
        throw new DatabaseOpenError(
          `another instance has held the start-up lock of ${opts.description} for more ` +
            `than ${Math.round(opts.maxWaitMs / 1000)} s`,
        );
      }
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
    return await work();
  } finally {
    // Ending the session releases the lock too; unlocking first frees it for the next at once.
    await client.query('select pg_advisory_unlock($1, $2)', [...LOCK_KEYS]).catch(() => undefined);
    await client.end().catch(() => undefined);
  }
}
