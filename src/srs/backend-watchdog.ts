// The SRS statement limit on PostgreSQL, enforced from outside the report's session. Report SQL
// may lift its own session's limit (`SET LOCAL statement_timeout = 0`, a function with a SET
// clause, a PL/pgSQL block catching the cancel), and a statement the server no longer stops
// would run on after the request gave up, holding its backend towards max_connections. So each
// statement (and the commit, which runs deferred triggers) also runs under a timer of the
// platform's: shortly past the limit, a connection of the platform's terminates the report's
// backend (pg_terminate_backend, which no SQL can catch or refuse), and the pool drops the
// connection (pg-pool.ts). The platform's role may do so as a member of the app role.
import { sql, type Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Database } from '../db/schema.js';

/** Past the session's own cancel, before the platform steps in: that cancel answers more cleanly. */
export const TERMINATE_GRACE_MS = 1_000;

/** One backend of the app role: its pid, and its start (a pid alone may be reused by a later backend). */
export interface AppBackend {
  pid: number;
  /** backend_start as seconds since the epoch (exact numeric text, independent of DateStyle). */
  startedAt: string;
}

/** Whether the app role carries settings of its own, for every database or this one. */
const ROLE_SETTINGS = sql<boolean>`exists (
  select 1 from pg_catalog.pg_db_role_setting s join pg_catalog.pg_roles r on r.oid = s.setrole
  where r.rolname = current_user and s.setdatabase in (0, (select d.oid from pg_catalog.pg_database d
    where d.datname = pg_catalog.current_database())))`;

/** The backend of `conn`, read on that connection, and whether its role carries settings of its own. */
// biome-ignore lint/suspicious/noExplicitAny: the app schema's tables are the users' own
export async function identifyBackend(conn: Kysely<any>): Promise<AppBackend & { roleSettings: boolean }> {
  // Qualified names only, read before any report SQL runs on the connection. The activity of
  // this one backend, not the pg_stat_activity view, which reads every backend's (a millisecond
  // of every report).
  const { rows } = await sql<{ pid: number; started_at: string; role_settings: boolean }>`
    select a.pid, extract(epoch from a.backend_start)::text as started_at, ${ROLE_SETTINGS} as role_settings
    from pg_catalog.pg_stat_get_activity(pg_catalog.pg_backend_pid()) a`.execute(conn);
  const row = rows[0];
  if (!row) throw new Error('the report connection does not find its own backend in pg_stat_activity');
  return { pid: Number(row.pid), startedAt: row.started_at, roleSettings: row.role_settings };
}

/**
 * Clears settings report SQL gave the app role itself (`ALTER ROLE CURRENT_USER SET …`, which any
 * role may do): every later login of the pool would start with them. Run on an app-role
 * connection, which may reset its own role. Whether there were any.
 */
// biome-ignore lint/suspicious/noExplicitAny: the app schema's tables are the users' own
export async function clearRoleSettings(conn: Kysely<any>): Promise<boolean> {
  const reset = sql<string>`pg_catalog.format('alter role current_user in database %I reset all',
    pg_catalog.current_database())`;
  const { rows } = await sql<{ present: boolean; stmt: string }>`
    select ${ROLE_SETTINGS} as present, ${reset} as stmt`.execute(conn);
  if (!rows[0]?.present) return false;
  await sql`alter role current_user reset all`.execute(conn);
  await sql.raw(rows[0].stmt).execute(conn);
  return true;
}

/** Guards the statements of one report run on one backend. */
export class BackendWatchdog {
  private backend: AppBackend | null = null;
  private terminating: Promise<void> = Promise.resolve();
  /** Whether a statement outlived the limit and its backend was (or was to be) terminated. */
  fired = false;

  constructor(
    private readonly platform: Kysely<Database>,
    private readonly limitMs: number,
    private readonly logger: Logger,
  ) {}

  watch(backend: AppBackend): void {
    this.backend = backend;
  }

  /** Runs `work` (one statement); past the limit and the grace its backend is terminated. */
  async guard<T>(work: () => Promise<T>): Promise<T> {
    const timer = setTimeout(() => {
      this.fired = true;
      this.terminating = this.terminate('a statement ran past the SRS statement timeout');
    }, this.limitMs + TERMINATE_GRACE_MS);
    try {
      return await work();
    } finally {
      clearTimeout(timer);
    }
  }

  /** Resolves once the termination the timer started is done (at once if it never fired). */
  terminated(): Promise<void> {
    return this.terminating;
  }

  /** Ends the backend from the platform's side: its session cannot be trusted or reset any more. */
  async terminate(why: string): Promise<void> {
    const backend = this.backend;
    if (!backend) return;
    try {
      const started = sql`cast(${backend.startedAt} as numeric)`;
      const { rows } = await sql<{ done: boolean }>`
        select pg_catalog.pg_terminate_backend(a.pid) as done from pg_catalog.pg_stat_activity a
        where a.pid = ${backend.pid} and extract(epoch from a.backend_start) = ${started}`.execute(this.platform);
      this.logger.warn({ pid: backend.pid, terminated: rows[0]?.done === true }, `${why}: its backend was terminated`);
    } catch (err) {
      // Without the right to signal the app role's backends, the statement runs on until it ends:
      // the pool's own timer only drops the connection.
      this.logger.error({ err, pid: backend.pid }, `${why}, and its backend cannot be terminated`);
    }
  }
}
