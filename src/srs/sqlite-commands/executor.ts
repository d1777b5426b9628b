// The SRS command executor for SQLite: compiles each request's bound statements with the
// server's connection (no SQL runs there) and hands them to the pool of command processes.
// The database file is asked of that connection (PRAGMA database_list), so the processes open
// exactly the file the server has open. An in-memory database has no file another process could
// open: its commands run on the server's connection instead (connection-commands.ts), where a
// statement cannot be stopped at the limit.
import { sql, type Kysely } from 'kysely';
import { ConnectionCommandExecutor } from '../connection-commands.js';
import type { CommandExecutor, CommandToRun, RunLimits } from '../run-commands.js';
import { SqliteCommandPool, type SqliteCommandPoolStats } from './pool.js';
import type { RunCommand } from './protocol.js';

export interface SqliteExecutorOptions {
  /** Command processes at most. */
  processes: number;
}

export class SqliteCommandExecutor implements CommandExecutor {
  private target: Promise<SqliteCommandPool | ConnectionCommandExecutor> | undefined;
  private closed = false;

  constructor(
    private readonly db: Kysely<any>,
    private readonly opts: SqliteExecutorOptions,
  ) {}

  async execute(commands: readonly CommandToRun[], limits: RunLimits, signal?: AbortSignal): Promise<Record<string, unknown>> {
    const target = await (this.target ??= this.open().catch((err: unknown) => {
      this.target = undefined;
      throw err;
    }));
    if (target instanceof ConnectionCommandExecutor) return target.execute(commands, limits);
    const compiled: RunCommand[] = commands.map((c) => ({
      name: c.name,
      output: c.output,
      statements: c.statements.map((s) => {
        const { sql: text, parameters } = s.compile(this.db);
        return { sql: text, parameters };
      }),
    }));
    return target.run({ commands: compiled, maxRows: limits.maxRows, statementTimeoutMs: limits.statementTimeoutMs }, signal);
  }

  /** The pool's figures (null before the first run, or on an in-memory database). */
  async stats(): Promise<SqliteCommandPoolStats | null> {
    const target = this.target ? await this.target : null;
    return target instanceof SqliteCommandPool ? target.stats() : null;
  }

  async close(): Promise<void> {
    this.closed = true;
    const target = this.target ? await this.target.catch(() => null) : null;
    await target?.close();
  }

  private async open(): Promise<SqliteCommandPool | ConnectionCommandExecutor> {
    const { rows } = await sql<{ file: string | null }>`select file from pragma_database_list where name = 'main'`.execute(this.db);
    const file = rows[0]?.file ?? '';
    // Closed while the file was looked up: a pool started now would outlive the server.
    if (this.closed) throw new Error('the SRS service is closed');
    return file === '' ? new ConnectionCommandExecutor(this.db, 'sqlite', false) : new SqliteCommandPool({ file, size: this.opts.processes });
  }
}
