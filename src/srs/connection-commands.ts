// Runs an SRS request's commands on PostgreSQL, over a connection of the app role's pool
// (app-role.ts): one transaction in the apps' schema, `SET LOCAL statement_timeout` cancelling a
// statement at the limit.
import { sql, type Kysely } from 'kysely';
import { commandData } from './row-json.js';
import { useAppSchema } from './app-role.js';
import { databaseFault } from '../db/database-errors.js';
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

export class ConnectionCommandExecutor implements CommandExecutor {
  constructor(
    // biome-ignore lint/suspicious/noExplicitAny: the app schema's tables are the users' own
    private readonly db: Kysely<any>,
    private readonly ownsDb: boolean,
  ) {}

  async execute(commands: readonly CommandToRun[], limits: RunLimits): Promise<Record<string, unknown>> {
    const results: Record<string, unknown> = {};
    await this.db.transaction().execute(async (trx) => {
      // SET takes no bound parameters; the value is an integer from the validated settings.
      const timeoutMs = String(Math.max(1, Math.round(limits.statementTimeoutMs)));
      await sql`set local statement_timeout = ${sql.raw(timeoutMs)}`.execute(trx);
      await useAppSchema(trx);
      for (const command of commands) {
        let rows: unknown[] = [];
        for (const statement of command.statements) {
          try {
            rows = (await statement.execute(trx)).rows;
          } catch (err) {
            // The connection lost or the server gone: not this command's fault (503, logged).
            if (databaseFault(err) === 'unavailable' && (err as { code?: unknown }).code !== QUERY_CANCELED) throw err;
            const timedOut = (err as { code?: unknown }).code === QUERY_CANCELED;
            throw new CommandFailedError(
              command.name,
              timedOut ? timeoutMessage(command.name, limits) : failedMessage(command.name),
              err,
            );
          }
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
    });
    return results;
  }

  async close(): Promise<void> {
    if (this.ownsDb) await this.db.destroy();
  }
}
