// The SRS command executor for SQLite: compiles each request's bound statements (no SQL runs in
// the server) and hands them to the pool of command processes. The processes open the apps'
// own database file (db/app-data.ts), never the platform's: report SQL cannot reach the
// platform's tables because its connection has no way to them.
import type { Kysely } from 'kysely';
import type { CommandExecutor, CommandToRun, RunLimits } from '../run-commands.js';
import { SqliteCommandPool, type SqliteCommandPoolStats } from './pool.js';
import type { RunCommand } from './protocol.js';

export interface SqliteExecutorOptions {
  /** The apps' database file the processes open. */
  file: string;
  /** Command processes at most. */
  processes: number;
}

export class SqliteCommandExecutor implements CommandExecutor {
  private pool: SqliteCommandPool | undefined;
  private closed = false;

  /** `compiler`: any SQLite Kysely instance; it only turns statements into SQL text and values. */
  constructor(
    private readonly compiler: Kysely<any>,
    private readonly opts: SqliteExecutorOptions,
  ) {}

  async execute(
    commands: readonly CommandToRun[],
    limits: RunLimits,
    signal?: AbortSignal,
  ): Promise<Record<string, unknown>> {
    // Closed: a pool started now would outlive the server.
    if (this.closed) throw new Error('the SRS service is closed');
    this.pool ??= new SqliteCommandPool({ file: this.opts.file, size: this.opts.processes });
    const compiled: RunCommand[] = commands.map((c) => ({
      name: c.name,
      output: c.output,
      statements: c.statements.map((s) => {
        const { sql: text, parameters } = s.compile(this.compiler);
        return { sql: text, parameters };
      }),
    }));
    return this.pool.run(
      { commands: compiled, maxRows: limits.maxRows, statementTimeoutMs: limits.statementTimeoutMs },
      signal,
    );
  }

  /** The pool's figures (null before the first run). */
  async stats(): Promise<SqliteCommandPoolStats | null> {
    return this.pool ? this.pool.stats() : null;
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.pool?.close();
  }
}
