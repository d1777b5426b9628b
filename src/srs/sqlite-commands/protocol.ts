// Messages between the command pool (server process) and an SQLite command process, over the
// child process's IPC channel (JSON). A process announces `ready` once its connection is open;
// the pool sends it one `run` at a time and gets `statement` before each statement it starts
// (the pool times every statement from it) and exactly one `done` or `failed` per run.

/** One statement, compiled for SQLite: `?` placeholders and their values, in order. */
export interface CompiledStatement {
  sql: string;
  parameters: readonly unknown[];
}

export interface RunCommand {
  name: string;
  /** What it contributes to the data: its rows, the first row (dtsingle), or nothing (srssetup). */
  output: 'rows' | 'single' | 'none';
  statements: CompiledStatement[];
}

/** A request's commands, run in order in one transaction. */
export interface RunJob {
  commands: RunCommand[];
  maxRows: number;
  statementTimeoutMs: number;
}

export interface RunRequest {
  type: 'run';
  id: number;
  job: RunJob;
}

/** An error as it crosses the process boundary (for the server's log, never for clients). */
export interface ErrorReport {
  name: string;
  message: string;
  code?: string;
  stack?: string;
}

/** Why a run failed: an SQL error, a statement over the time limit, a result over the row limit. */
export type FailureReason = 'error' | 'timeout' | 'rows';

export type RunnerReply =
  | { type: 'ready' }
  | { type: 'statement'; id: number; command: string }
  | { type: 'done'; id: number; data: Record<string, unknown> }
  /** `command` is null when the transaction itself failed (BEGIN, COMMIT). */
  | { type: 'failed'; id: number; command: string | null; reason: FailureReason; error: ErrorReport };
