// The SQLite command pool: SRS requests' commands run in child processes, each with its own
// connection to the database file, so the server's event loop never runs report SQL. A process
// is killed when a statement runs past the time limit (better-sqlite3 cannot interrupt a
// statement, and a terminated worker thread would keep running it to its end, holding its
// locks): that stops the statement and discards the open transaction with the connection.
// Processes start on demand up to `size` and are reused; requests beyond them wait in a FIFO.
import { CommandFailedError, failedMessage, timeoutMessage, tooManyRowsMessage } from '../run-commands.js';
import type { ErrorReport, RunJob, RunnerReply } from './protocol.js';
import { runnerLaunch, type RunnerLaunch } from './runner-launch.js';
import { RunnerSlot } from './runner-slot.js';

/** Processes that die before they are ready, in a row, before waiting requests are failed. */
const MAX_START_FAILURES = 3;
/** Added to the statement timeout before the process is killed: a statement that ends just
 *  before then is failed by the process itself (rolled back, process kept), and the kill does
 *  not race a transaction committing right at the limit. */
const KILL_GRACE_MS = 100;

export interface SqliteCommandPoolOptions {
  /** The database file the processes open. */
  file: string;
  /** Processes at most. */
  size: number;
  /** How to start a process (tests); default runnerLaunch(). */
  launch?: RunnerLaunch;
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

interface PendingRun {
  id: number;
  job: RunJob;
  resolve(data: Record<string, unknown>): void;
  reject(err: unknown): void;
  signal: AbortSignal | undefined;
  onAbort: (() => void) | undefined;
  slot: RunnerSlot | null;
  timer: NodeJS.Timeout | undefined;
  /** The command whose statement runs (named by a timeout). */
  command: string;
  settled: boolean;
}

export class SqliteCommandPool {
  private launch: RunnerLaunch | undefined;
  private readonly slots = new Set<RunnerSlot>();
  private readonly running = new Map<RunnerSlot, PendingRun>();
  private readonly queue: PendingRun[] = [];
  private nextId = 1;
  private started = 0;
  private closed = false;
  private startFailures = 0;
  /** Kills the processes if the server exits without closing the pool. */
  private readonly killOnExit = () => {
    for (const s of this.slots) s.child.kill('SIGKILL');
  };

  constructor(private readonly opts: SqliteCommandPoolOptions) {
    if (!Number.isInteger(opts.size) || opts.size < 1)
      throw new RangeError(`SQLite command pool: size must be an integer ≥ 1 (got ${String(opts.size)})`);
    this.launch = opts.launch;
  }

  /** Runs the job's commands in one transaction: the data of the commands that have data. */
  run(job: RunJob, signal?: AbortSignal): Promise<Record<string, unknown>> {
    if (this.closed) return Promise.reject(new CommandPoolClosedError());
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (job.commands.length === 0) return Promise.resolve({});
    return new Promise((resolve, reject) => {
      const p: PendingRun = {
        id: this.nextId++,
        job,
        resolve,
        reject,
        signal,
        onAbort: undefined,
        slot: null,
        timer: undefined,
        command: job.commands[0]!.name,
        settled: false,
      };
      if (signal) {
        p.onAbort = () => this.abort(p);
        signal.addEventListener('abort', p.onAbort, { once: true });
      }
      this.queue.push(p);
      this.pump();
    });
  }

  stats(): SqliteCommandPoolStats {
    const pids = [...this.slots].map((s) => s.pid).filter((pid): pid is number => pid !== undefined);
    return { size: this.opts.size, busy: this.running.size, queued: this.queue.length, pids, started: this.started };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const p of this.queue.splice(0)) this.settle(p, new CommandPoolClosedError());
    for (const p of [...this.running.values()]) this.settle(p, new CommandPoolClosedError());
    this.running.clear();
    const slots = [...this.slots];
    this.slots.clear();
    await Promise.all(slots.map((s) => s.stop()));
    process.off('exit', this.killOnExit);
  }

  private pump(): void {
    this.fillProcesses();
    const active = this.queue.length + this.running.size > 0;
    for (const s of this.slots) s.keepAlive(active);
  }

  private fillProcesses(): void {
    while (this.queue.length > 0 && !this.closed) {
      const idle = [...this.slots].find((s) => s.ready && !s.stopped && !this.running.has(s));
      if (idle) {
        this.dispatch(idle, this.queue.shift()!);
        continue;
      }
      const starting = [...this.slots].filter((s) => !s.ready).length;
      if (this.slots.size >= this.opts.size || starting >= this.queue.length) return;
      if (!this.spawn()) return;
    }
  }

  private spawn(): boolean {
    let slot: RunnerSlot;
    try {
      this.launch ??= runnerLaunch();
      slot = new RunnerSlot(this.launch, this.opts.file, {
        onReply: (s, msg) => this.onReply(s, msg),
        onUnexpectedExit: (s, message) => this.onUnexpectedExit(s, message),
      });
    } catch (err) {
      // Nothing to start (no script, no tsx for the sources): fail what waits.
      const failure = new Error(`cannot start an SQLite command process: ${(err as Error).message}`, { cause: err });
      for (const p of this.queue.splice(0)) this.settle(p, failure);
      return false;
    }
    if (this.slots.size === 0) process.on('exit', this.killOnExit);
    this.slots.add(slot);
    this.started++;
    return true;
  }

  private dispatch(slot: RunnerSlot, p: PendingRun): void {
    p.slot = slot;
    this.running.set(slot, p);
    if (!slot.send({ type: 'run', id: p.id, job: p.job })) {
      // The channel closed under us: the exit handler fails this run.
      return;
    }
    this.armTimer(p);
  }

  /** (Re)starts the statement clock of a running job: its process is killed when it runs out. */
  private armTimer(p: PendingRun): void {
    clearTimeout(p.timer);
    const limit = p.job.statementTimeoutMs;
    p.timer = setTimeout(() => {
      if (!p.slot) return;
      const cause = new Error(
        `a statement of command "${p.command}" ran past ${limit} ms: its SQLite command process was killed`,
      );
      this.stopRunning(p.slot, new CommandFailedError(p.command, timeoutMessage(p.command, limits(p.job)), cause));
    }, limit + KILL_GRACE_MS);
  }

  private onReply(slot: RunnerSlot, msg: RunnerReply): void {
    if (msg.type === 'ready') {
      this.startFailures = 0;
      this.pump();
      return;
    }
    const p = this.running.get(slot);
    if (!p || p.id !== msg.id) return;
    if (msg.type === 'statement') {
      p.command = msg.command;
      this.armTimer(p);
      return;
    }
    this.running.delete(slot);
    if (msg.type === 'done') this.settle(p, null, msg.data);
    else this.settle(p, failure(p.job, msg.command, msg.reason, msg.error));
    this.pump();
  }

  private onUnexpectedExit(slot: RunnerSlot, message: string): void {
    this.slots.delete(slot);
    const p = this.running.get(slot);
    this.running.delete(slot);
    if (this.slots.size === 0) process.off('exit', this.killOnExit);
    if (p) {
      const cause = new Error(`the SQLite command process stopped unexpectedly: ${message}`);
      this.settle(p, new CommandFailedError(p.command, failedMessage(p.command), cause));
    } else if (!slot.ready && ++this.startFailures >= MAX_START_FAILURES) {
      // Processes die while starting: do not retry forever; the next request tries again.
      this.startFailures = 0;
      const err = new Error(`SQLite command processes fail to start: ${message}`);
      for (const q of this.queue.splice(0)) this.settle(q, err);
    }
    this.pump();
  }

  /** Kills a running job's process (its statement and transaction end with it). */
  private stopRunning(slot: RunnerSlot, reason: unknown): void {
    const p = this.running.get(slot);
    this.running.delete(slot);
    this.slots.delete(slot);
    if (this.slots.size === 0) process.off('exit', this.killOnExit);
    void slot.stop();
    if (p) this.settle(p, reason);
    this.pump();
  }

  private abort(p: PendingRun): void {
    if (p.settled) return;
    const reason = p.signal?.reason ?? new DOMException('The run was aborted', 'AbortError');
    if (p.slot) {
      this.stopRunning(p.slot, reason);
      return;
    }
    const i = this.queue.indexOf(p);
    if (i >= 0) this.queue.splice(i, 1);
    this.settle(p, reason);
    this.pump();
  }

  private settle(p: PendingRun, err: unknown, data?: Record<string, unknown>): void {
    if (p.settled) return;
    p.settled = true;
    clearTimeout(p.timer);
    if (p.onAbort) p.signal?.removeEventListener('abort', p.onAbort);
    if (data) p.resolve(data);
    else p.reject(err);
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
