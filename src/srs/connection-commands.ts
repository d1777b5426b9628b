// Runs an SRS request's commands over a Kysely connection of this process: PostgreSQL always
// (`SET LOCAL statement_timeout` cancels a statement at the limit), and SQLite only when the
// database has no file another process could open (an in-memory database). There a statement
// cannot be interrupted: one that took longer than the limit fails its command after it returns,
// with the same answer, but the event loop was busy meanwhile.
import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../db/connect.js';
import { commandData } from './row-json.js';
import { CommandFailedError, failedMessage, timeoutMessage, tooManyRowsMessage, type CommandExecutor, type CommandToRun, type RunLimits } from './run-commands.js';

/** PostgreSQL's SQLSTATE for a statement cancelled by statement_timeout. */
const QUERY_CANCELED = '57014';

export class ConnectionCommandExecutor implements CommandExecutor {
  constructor(
    private readonly db: Kysely<any>,
    private readonly dialect: DialectName,
    private readonly ownsDb: boolean,
  ) {}

  async execute(commands: readonly CommandToRun[], limits: RunLimits): Promise<Record<string, unknown>> {
    const results: Record<string, unknown> = {};
    await this.db.transaction().execute(async (trx) => {
      if (this.dialect === 'postgresql') {
        // SET takes no bound parameters; the value is an integer from the validated settings.
        await sql`set local statement_timeout = ${sql.raw(String(Math.max(1, Math.round(limits.statementTimeoutMs))))}`.execute(trx);
      }
      for (const command of commands) {
        let rows: unknown[] = [];
        for (const statement of command.statements) {
          const started = performance.now();
          try {
            rows = (await statement.execute(trx)).rows;
          } catch (err) {
            const timedOut = (err as { code?: unknown }).code === QUERY_CANCELED;
            throw new CommandFailedError(command.name, timedOut ? timeoutMessage(command.name, limits) : failedMessage(command.name), err);
          }
          if (this.dialect === 'sqlite' && performance.now() - started > limits.statementTimeoutMs) {
            throw new CommandFailedError(command.name, timeoutMessage(command.name, limits), new Error('statement ran past the statement timeout'));
          }
          if (rows.length > limits.maxRows) {
            throw new CommandFailedError(command.name, tooManyRowsMessage(command.name, limits), new Error(`${rows.length} rows`));
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
