// The SQLite command pool: SRS requests' commands run in child processes, each with its own
// connection to the database file, so the server's event loop never runs report SQL. A process
// is killed when a statement runs past the time limit (better-sqlite3 cannot interrupt a
// statement, and a terminated worker thread would keep running it to its end, holding its
// locks): that stops the statement and discards the open transaction with the connection.
// Processes start on demand up to `size` and are reused; requests beyond them wait in a FIFO.
// The pool's mechanics are src/lib/worker-pool's (shared with the render and preview threads);
// this file says what a run is, how it is timed (per statement) and which errors it ends in.
import {
  entryBeside,
  integerOption,
  processLaunch,
  processWorkers,
  WorkerPool,
  type ProcessLaunch,
} from '../../lib/worker-pool/index.js';
import { CommandFailedError, failedMessage, timeoutMessage, tooManyRowsMessage } from '../run-commands.js';
import type { ErrorReport, RunJob, RunnerReply, RunRequest } from './protocol.js';

/** Added to the statement timeout before the process is killed: a statement that ends just
 *  before then is failed by the process itself (rolled back, process kept), and the kill does
 *  not race a transaction committing right at the limit. */
const KILL_GRACE_MS = 100;

export interface SqliteCommandPoolOptions {
  /** The database file the processes open. */
  file: string;
  /** Processes at most. */
  size: number;
  /** How to start a process (tests); default: runner-process beside this module. */
  launch?: ProcessLaunch;
}

export interface SqliteCommandPoolStats {
  size: number;
  busy: number;
  queued: number;
  /** Process ids of the live processes. */
  pids: number[];
  /** Processes started since the pool was made (a killed one is replaced by a new start). */
  started: number;
}

/** The pool is closed (the server is shutting down). */
export class CommandPoolClosedError extends Error {
  constructor() {
    super('the SQLite command pool is closed');
  }
}

/** A run in the pool: the job, and the command whose statement runs (named by a timeout). */
interface Run {
  job: RunJob;
  command: string;
}

export class SqliteCommandPool {
  private readonly pool: WorkerPool<Run, Record<string, unknown>, RunnerReply>;

  constructor(opts: SqliteCommandPoolOptions) {
    const size = integerOption('SQLite command pool', 'size', opts.size, 1, 1);
    const launch = () =>
      opts.launch ?? processLaunch(entryBeside(import.meta.url, 'runner-process'), 'SQLite command process');
    this.pool = new WorkerPool<Run, Record<string, unknown>, RunnerReply>(
      { size, queueLimit: Infinity },
      {
        noun: 'run',
        initialAverageMs: 100,
        startWorker: processWorkers({ launch, args: [opts.file] }),
        request: (id, run): RunRequest => ({ type: 'run', id, job: run.job }),
        timeLimitMs: (run) => run.job.statementTimeoutMs + KILL_GRACE_MS,
        answer: (msg, run) => {
          if (msg.type === 'statement') {
            run.command = msg.command;
            return { progress: true };
          }
          if (msg.type === 'done') return { result: msg.data };
          return { error: failure(run.job, msg.command, msg.reason, msg.error) };
        },
        busy: () => new Error('the SQLite command pool has no queue limit'),
        timeout: ({ job, command }) => {
          const limit = job.statementTimeoutMs;
          const cause = new Error(
            `a statement of command "${command}" ran past ${limit} ms: its SQLite command process was killed`,
          );
          return new CommandFailedError(command, timeoutMessage(command, limits(job)), cause);
        },
        lost: ({ command }, exit) => {
          const cause = new Error(`the SQLite command process stopped unexpectedly: ${exit.message}`);
          return new CommandFailedError(command, failedMessage(command), cause);
        },
        startFailed: (message) => new Error(`SQLite command processes fail to start: ${message}`),
        cannotStart: (err) =>
          new Error(`cannot start an SQLite command process: ${(err as Error).message}`, { cause: err }),
        unsendable: ({ command }, err) => new CommandFailedError(command, failedMessage(command), err as Error),
        closed: () => new CommandPoolClosedError(),
      },
    );
  }

  /** Runs the job's commands in one transaction: the data of the commands that have data. */
  run(job: RunJob, signal?: AbortSignal): Promise<Record<string, unknown>> {
    if (this.pool.isOpen && !signal?.aborted && job.commands.length === 0) return Promise.resolve({});
    return this.pool.submit({ job, command: job.commands[0]?.name ?? '' }, signal);
  }

  stats(): SqliteCommandPoolStats {
    return this.pool.stats();
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}

const limits = (job: RunJob) => ({ statementTimeoutMs: job.statementTimeoutMs, maxRows: job.maxRows });

/** The error a failed run answers with: CommandFailedError naming the command, the process's error as its cause. */
function failure(
  job: RunJob,
  command: string | null,
  reason: 'error' | 'timeout' | 'rows',
  report: ErrorReport,
): Error {
  const cause = Object.assign(
    new Error(report.message),
    { name: report.name },
    report.code !== undefined ? { code: report.code } : {},
    report.stack !== undefined ? { stack: report.stack } : {},
  );
  if (command === null) return new Error(`the SRS transaction failed: ${report.message}`, { cause });
  const message =
    reason === 'timeout'
      ? timeoutMessage(command, limits(job))
      : reason === 'rows'
        ? tooManyRowsMessage(command, limits(job))
        : failedMessage(command);
  return new CommandFailedError(command, message, cause);
}
