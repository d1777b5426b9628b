// Runs an SRS request's commands on PostgreSQL, over a connection of the app role's pool
// (app-role.ts): one transaction in the apps' schema. The statement limit holds twice: the
// session's `SET LOCAL statement_timeout` cancels an ordinary slow statement at the limit (the
// connection stays in the pool), and the platform terminates the backend of one still running
// shortly after (backend-watchdog.ts). After each run the session is reset (DISCARD ALL), so
// nothing a report set, created, prepared, held, opened or listened for reaches the next report
// on the same connection; a session that cannot be reset is terminated instead.
import { sql, type Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Database } from '../db/schema.js';
import { commandData } from './row-json.js';
import { useAppSchema } from './app-role.js';
import { databaseFault } from '../db/database-errors.js';
import { BackendWatchdog, clearRoleSettings, identifyBackend } from './backend-watchdog.js';
import {
  CommandFailedError,
  failedMessage,
  timeoutMessage,
  tooManyRowsMessage,
  type CommandExecutor,
  type CommandToRun,
  type RunLimits,
} from './run-commands.js';

/** PostgreSQL's SQLSTATE for a statement cancelled by statement_timeout. */
const QUERY_CANCELED = '57014';

export interface ConnectionExecutorOptions {
  /** The app role's connections (app-role.ts). */
  // biome-ignore lint/suspicious/noExplicitAny: the app schema's tables are the users' own
  appDb: Kysely<any>;
  /** The platform's own connections: they terminate a report's backend, and tell a lost
   *  report connection from a database that is down. */
  platformDb: Kysely<Database>;
  /** Whether close() ends the app role's pool. */
  ownsAppDb: boolean;
  logger: Logger;
}

export class ConnectionCommandExecutor implements CommandExecutor {
  constructor(private readonly opts: ConnectionExecutorOptions) {}

  /**
   * Resolves once the run has committed: the session's reset (DISCARD ALL, the role's settings)
   * then goes on before the connection returns to the pool, off the report's wait. A failed run
   * rejects only after its connection is reset or dropped, so nothing of it outlives its answer.
   */
  execute(commands: readonly CommandToRun[], limits: RunLimits): Promise<Record<string, unknown>> {
    const { platformDb, logger } = this.opts;
    return new Promise((resolve, reject) => {
      this.opts.appDb
        .connection()
        .execute(async (conn) => {
          const watchdog = new BackendWatchdog(platformDb, limits.statementTimeoutMs, logger);
          // Logged in while the role carried settings report SQL gave it: they are this session's
          // defaults for good, so it is ended after this run rather than pooled.
          let tainted = false;
          try {
            // READ WRITE whatever default the role was given; SET takes no bound parameters, and
            // the value is an integer from the validated settings.
            await sql`begin read write`.execute(conn);
            const timeoutMs = String(Math.max(1, Math.round(limits.statementTimeoutMs)));
            await sql`set local statement_timeout = ${sql.raw(timeoutMs)}`.execute(conn);
            await useAppSchema(conn);
            const backend = await identifyBackend(conn);
            watchdog.watch(backend);
            tainted = backend.roleSettings;
            const results = await this.run(conn, watchdog, commands, limits);
            const last = commands.at(-1)?.name ?? '';
            await this.statement(watchdog, last, limits, () => sql`commit`.execute(conn));
            resolve(results);
          } catch (err) {
            // Bounded by the pool's own query timer; on a lost connection it fails at once.
            await sql`rollback`.execute(conn).catch(() => undefined);
            throw err;
          } finally {
            // A terminated backend has nothing to reset; a statement may have ended just before it.
            if (watchdog.fired) await this.dropConnection(conn, watchdog);
            else await this.resetSession(conn, watchdog, tainted);
          }
        })
        .catch(reject);
    });
  }

  private async run(
    // biome-ignore lint/suspicious/noExplicitAny: the app schema's tables are the users' own
    conn: Kysely<any>,
    watchdog: BackendWatchdog,
    commands: readonly CommandToRun[],
    limits: RunLimits,
  ): Promise<Record<string, unknown>> {
    const results: Record<string, unknown> = {};
    for (const command of commands) {
      let rows: unknown[] = [];
      for (const statement of command.statements) {
        rows = (await this.statement(watchdog, command.name, limits, () => statement.execute(conn))).rows;
        if (rows.length > limits.maxRows) {
          throw new CommandFailedError(
            command.name,
            tooManyRowsMessage(command.name, limits),
            new Error(`${rows.length} rows`),
          );
        }
      }
      if (command.output !== 'none') results[command.name] = commandData(rows, command.output === 'single');
    }
    return results;
  }

  /** One statement of `command` under the watchdog; its failure as the command's. */
  private async statement<T>(
    watchdog: BackendWatchdog,
    command: string,
    limits: RunLimits,
    work: () => Promise<T>,
  ): Promise<T> {
    try {
      return await watchdog.guard(work);
    } catch (err) {
      const timedOut = watchdog.fired || (err as { code?: unknown }).code === QUERY_CANCELED;
      if (timedOut) throw new CommandFailedError(command, timeoutMessage(command, limits), err);
      // The connection lost while the platform's still answer: the report's own doing (its SQL
      // ended its backend, or ran the server out of memory), not an outage (503, logged).
      if (databaseFault(err) === 'unavailable' && !(await this.databaseAnswers())) throw err;
      throw new CommandFailedError(command, failedMessage(command), err);
    }
  }

  private async databaseAnswers(): Promise<boolean> {
    try {
      await sql`select 1`.execute(this.opts.platformDb);
      return true;
    } catch {
      return false;
    }
  }

  /** Back to the state of a new session, with the role's settings cleared; a session that does
   *  not come back, or that started with such settings, is terminated. */
  // biome-ignore lint/suspicious/noExplicitAny: the app schema's tables are the users' own
  private async resetSession(conn: Kysely<any>, watchdog: BackendWatchdog, tainted: boolean): Promise<void> {
    let why = tainted ? 'a report connection logged in with settings report SQL gave the app role' : '';
    try {
      await watchdog.guard(() => sql`discard all`.execute(conn));
      if (await watchdog.guard(() => clearRoleSettings(conn)))
        this.opts.logger.warn('report SQL gave the app role settings of its own; they were cleared');
    } catch (err) {
      this.opts.logger.warn({ err }, 'a report connection could not be reset');
      why = 'a report connection could not be reset';
    }
    if (!why) return;
    await watchdog.terminate(why);
    await this.dropConnection(conn, watchdog);
  }

  /** Once its backend is terminated, a statement on the connection fails, so the pool sees it
   *  lost and drops it rather than handing it to the next report. */
  // biome-ignore lint/suspicious/noExplicitAny: the app schema's tables are the users' own
  private async dropConnection(conn: Kysely<any>, watchdog: BackendWatchdog): Promise<void> {
    await watchdog.terminated();
    const alive = await sql`select 1`.execute(conn).then(
      () => true,
      () => false,
    );
    // Still there (the platform may not terminate it, logged): at least its session state goes.
    if (alive) await sql`discard all`.execute(conn).catch(() => undefined);
  }

  async close(): Promise<void> {
    if (this.opts.ownsAppDb) await this.opts.appDb.destroy();
  }
}
