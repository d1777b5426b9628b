// Instances starting at the same moment on one PostgreSQL database take turns for the start-up
// work (migrations, the default team and roles, the first administrator): without it two of
// them race on the same inserts and one exits on a unique violation. A lock on a relation of the
// platform's, held by a transaction on a connection of its own, serialises them; the others
// wait, bounded, then find the work done. SQLite has the same with a lock file
// (file-start-lock.ts).
//
// Not an advisory lock: any session of the database may take one, report SQL included, and
// would hold every start and `platform-core migrate` back. The relation is one the app role has
// no right on, so it cannot LOCK it; and the mode, SHARE UPDATE EXCLUSIVE, conflicts with none
// of the modes a statement takes before its rights are checked (ACCESS SHARE, ROW SHARE, ROW
// EXCLUSIVE: kept to the end of its transaction by PREPARE or CREATE VIEW over the relation).
import pg from 'pg';
import { PostgresAdapter, PostgresDialect, sql, type Transaction } from 'kysely';
import type { Database } from './schema.js';
import { DatabaseOpenError } from './open-error.js';

/**
 * The relation locked: a view without columns in the platform's schema. A view, not a table, so
 * that the move of non-platform tables into schema `app` (migration 003) leaves it where it is.
 */
const LOCK_RELATION = 'platform_start_lock';
/** SQLSTATE of a lock wait past lock_timeout. */
const LOCK_NOT_AVAILABLE = '55P03';

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
    await ensureLockRelation(client);
    await client.query('begin');
    // A blocking wait queues this request: a stream of shorter conflicting holders cannot starve
    // it. Bounded by lock_timeout alone; the transaction stays open while the work runs.
    const waitMs = Math.max(1, Math.round(opts.maxWaitMs));
    await client.query(`set local lock_timeout = ${waitMs}`);
    await client.query('set local statement_timeout = 0');
    await client.query('set local idle_in_transaction_session_timeout = 0');
    try {
      await client.query(`lock table ${LOCK_RELATION} in share update exclusive mode`);
    } catch (err) {
      if ((err as { code?: unknown }).code !== LOCK_NOT_AVAILABLE) throw err;
      throw new DatabaseOpenError(
        `another instance has held the start-up lock of ${opts.description} for more ` +
          `than ${Math.round(opts.maxWaitMs / 1000)} s`,
      );
    }
    return await work();
  } finally {
    // Ending the session releases the lock too; ending the transaction first frees it at once.
    await client.query('rollback').catch(() => undefined);
    await client.end().catch(() => undefined);
  }
}

/**
 * Inside a transaction of the platform's: takes the start-up lock until the transaction ends, for
 * work after the start that instances must still do one at a time (app seeds). The relation
 * exists: the start made it.
 */
export async function lockPlatformStart(trx: Transaction<Database>): Promise<void> {
  await sql.raw(`lock table ${LOCK_RELATION} in share update exclusive mode`).execute(trx);
}

async function lockRelationPresent(client: pg.Client): Promise<boolean> {
  const { rows } = await client.query<{ present: boolean }>('select to_regclass($1) is not null as present', [
    LOCK_RELATION,
  ]);
  return rows[0]?.present === true;
}

/** Made once, by the first start; the existence check first, so a user without CREATE can start later. */
async function ensureLockRelation(client: pg.Client): Promise<void> {
  if (await lockRelationPresent(client)) return;
  try {
    await client.query(`create view ${LOCK_RELATION} as select`);
  } catch (err) {
    // Instances creating it at the same moment: the losers fail in one of several ways (the
    // relation, its row type, or the type's unique index, by timing). Whatever the error, it
    // is harmless when the relation is there now.
    if (!(await lockRelationPresent(client))) throw err;
  }
}

/**
 * Kysely's PostgreSQL adapter without its migration lock, an advisory lock (report SQL could
 * take it and make every migration wait). Migrations run under the start-up lock above instead
 * (connect.ts: exclusiveStart), which serialises them across instances and the CLI.
 */
class AdapterWithoutMigrationLock extends PostgresAdapter {
  override async acquireMigrationLock(): Promise<void> {}
  override async releaseMigrationLock(): Promise<void> {}
}

/** The platform's PostgreSQL dialect: Kysely's, with the adapter above. */
export class PlatformPostgresDialect extends PostgresDialect {
  override createAdapter(): PostgresAdapter {
    return new AdapterWithoutMigrationLock();
  }
}
