// What the pool (pool.ts) needs of one worker, whether a thread (thread-worker.ts) or a child
// process (process-worker.ts): send it a job, hear its replies and how it ended, keep the host
// process alive while it has work, stop it.

/** Every worker posts `{ type: 'ready' }` once loaded, then its pool's replies (with the job's `id`). */
export interface PoolReply {
  type: string;
  id?: number;
}

/** How a worker ended without being stopped by the pool. */
export interface WorkerExit {
  /** A thread that hit its heap limit (processes never report this). */
  outOfMemory: boolean;
  /** What ended it: the worker's uncaught error, its exit code or signal. */
  message: string;
  error?: Error;
}

export interface WorkerEvents<Reply extends PoolReply> {
  onReply(worker: PoolWorker, reply: Reply): void;
  /** The worker ended (or could not start) without being stopped by the pool. */
  onExit(worker: PoolWorker, exit: WorkerExit): void;
}

export interface PoolWorker {
  /** It has posted `ready`. */
  readonly ready: boolean;
  /** The pool stopped it, or it ended: it takes no more jobs. */
  readonly stopped: boolean;
  /** The process id of a child process (undefined for threads). */
  readonly pid: number | undefined;
  /** Sends a job's message. False when the worker is already gone (its exit event follows);
   *  throws when the message cannot be sent (it cannot be cloned or serialised). */
  send(message: unknown): boolean;
  /** Whether this worker keeps the host process alive (only while the pool has work). */
  keepAlive(on: boolean): void;
  /** Stops it at once (a running job ends with it); resolves once it is gone. */
  stop(): Promise<void>;
}

/** Starts one worker that reports to `events` (the pool's); throws when none can be started. */
export type StartWorker<Reply extends PoolReply> = (events: WorkerEvents<Reply>) => PoolWorker;
