// The errors a pool of one kind of job (renders, previews) rejects with, and the pool hooks that
// make them. The messages name the kind of job (the pool's noun) and are for logs; the API layer
// answers each class in its own words.
import type { PoolReply, WorkerExit } from './pool-worker.js';
import type { WorkerPoolHooks } from './pool.js';

/** Base class of every error made here. */
export class WorkerPoolError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** The queue is full: come back after `retryAfterSeconds`. */
export class PoolBusyError extends WorkerPoolError {
  constructor(
    readonly retryAfterSeconds: number,
    what: string,
  ) {
    super(`${what} is busy; retry in ${retryAfterSeconds} s`);
  }
}

/** The job ran over its time limit; its worker was stopped (and is replaced on demand). */
export class JobTimeoutError extends WorkerPoolError {
  constructor(
    readonly timeoutMs: number,
    message: string,
  ) {
    super(message);
  }
}

/** The job hit its worker's heap limit; the worker died (and is replaced on demand). */
export class JobMemoryError extends WorkerPoolError {
  constructor(
    readonly maxMemoryMb: number,
    message: string,
  ) {
    super(message);
  }
}

/** Anything else: the job failed in its worker, or a worker crashed or could not start. The
 *  message is for logs, not for clients. */
export class JobFailedError extends WorkerPoolError {}

/** The pool was closed before the job finished. */
export class PoolClosedError extends WorkerPoolError {}

/** The failure hooks shared by the pools of one kind of job. */
export type FailureHooks<Job> = Pick<
  WorkerPoolHooks<Job, unknown, PoolReply>,
  'busy' | 'timeout' | 'lost' | 'startFailed' | 'cannotStart' | 'unsendable' | 'closed'
>;

export interface FailureHooksOptions<Job> {
  /** The kind of job, as the messages name it ("render", "preview"). */
  noun: string;
  /** Said after "failed" in the log messages: which request the job served (" (request 7)"). */
  describe?: (job: Job) => string;
  busy(retryAfterSeconds: number): PoolBusyError;
  timeout(): JobTimeoutError;
  outOfMemory(): JobMemoryError;
}

/** The pool hooks that answer every failure of a job with the errors above. */
export function failureHooks<Job>(o: FailureHooksOptions<Job>): FailureHooks<Job> {
  const describe = o.describe ?? (() => '');
  return {
    busy: o.busy,
    timeout: o.timeout,
    lost: (job: Job, exit: WorkerExit) =>
      exit.outOfMemory
        ? o.outOfMemory()
        : failed(`the ${o.noun} worker stopped unexpectedly${describe(job)}: ${exit.message}`, exit.error),
    startFailed: (message, cause) => failed(`${o.noun} workers fail to start: ${message}`, cause),
    cannotStart: (err) => failed(`cannot start a ${o.noun} worker: ${(err as Error).message}`, err),
    unsendable: (_job, err) => failed(`the ${o.noun} job cannot be sent to a worker: ${(err as Error).message}`, err),
    closed: () => new PoolClosedError(`the ${o.noun} pool is closed`),
  };
}

/** A job that failed inside its worker, with the worker's message and stack as the cause. */
export function jobFailed(message: string, reported: { message: string; stack?: string | undefined }): JobFailedError {
  const cause = Object.assign(
    new Error(reported.message),
    reported.stack !== undefined ? { stack: reported.stack } : {},
  );
  return new JobFailedError(`${message}: ${reported.message}`, { cause });
}

function failed(message: string, cause: unknown): JobFailedError {
  return new JobFailedError(message, cause === undefined ? undefined : { cause });
}
