// One pool of workers for work that must not run on the event loop (see README.md): the pool,
// and its two kinds of workers, threads and child processes.

export {
  WorkerPool,
  type JobReply,
  type ReplyEffect,
  type WorkerLosses,
  type WorkerPoolHooks,
  type WorkerPoolLimits,
} from './pool.js';
export type { PoolReply, PoolWorker, StartWorker, WorkerEvents, WorkerExit } from './pool-worker.js';
export { integerOption, resolvePoolLimits, type PoolLimits, type PoolLimitsInput } from './limits.js';
export { entryBeside, processLaunch, threadLaunch, WorkerLaunchError, type ProcessLaunch } from './launch.js';
export { threadWorkers, type ThreadWorkerOptions } from './thread-worker.js';
export { processWorkers, type ProcessWorkerOptions } from './process-worker.js';
export {
  failureHooks,
  JobFailedError,
  jobFailed,
  JobMemoryError,
  JobTimeoutError,
  PoolBusyError,
  PoolClosedError,
  WorkerPoolError,
  type FailureHooks,
} from './job-errors.js';
