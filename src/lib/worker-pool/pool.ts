// One pool of workers, threads or child processes alike (the worker kind is the caller's
// StartWorker): workers start on demand (or all at once and warmed up: startAll) up to `size`
// and are reused; jobs beyond them wait in a FIFO queue, and a full queue refuses at once (with
// a Retry-After from recent job times); a job over its time limit, aborted while running, or
// whose worker died loses its worker, and a fresh one serves the next job. What a job is, what
// a worker answers and which errors a pool rejects with are the caller's (WorkerPoolHooks).

import type { PoolReply, PoolWorker, StartWorker, WorkerExit } from './pool-worker.js';

/** Workers that die before they are ready, in a row, before waiting jobs are failed. */
const MAX_START_FAILURES = 3;
/** A warm-up not answered by then means a stuck worker: it is stopped and warm-ups end. */
const WARMUP_LIMIT_MS = 30_000;
/** Retry-After bounds (seconds). */
const MIN_RETRY_AFTER = 1;
const MAX_RETRY_AFTER = 60;

/** A worker's reply to a running job (not its `ready`). */
export type JobReply<Reply extends PoolReply> = Exclude<Reply, { type: 'ready' }>;

/** What a reply does to its job: ends it with a result or an error, or says it is still running
 *  and starts its time limit again (`progress`: the SQLite pool times each statement). */
export type ReplyEffect<Result> = { result: Result } | { error: unknown } | { progress: true };

export interface WorkerPoolHooks<Job, Result, Reply extends PoolReply> {
  /** What a job is called in abort messages: `render`, `preview`, `run`. */
  noun: string;
  /** The first guess of a job's time, for Retry-After until jobs have run. */
  initialAverageMs: number;
  startWorker: StartWorker<Reply>;
  /** The message sent to a worker for a job. */
  request(id: number, job: Job): unknown;
  /** A job's time limit, from when a worker takes it (and again after each `progress`). */
  timeLimitMs(job: Job): number;
  answer(reply: JobReply<Reply>, job: Job): ReplyEffect<Result>;
  /** The queue is full. */
  busy(retryAfterSeconds: number): Error;
  /** The job ran past its time limit; its worker was stopped. */
  timeout(job: Job): Error;
  /** The job's worker ended under it (crashed, or hit its heap limit: `exit.outOfMemory`). */
  lost(job: Job, exit: WorkerExit): Error;
  /** Workers keep dying before they are ready: the waiting jobs fail with this. */
  startFailed(message: string, cause?: Error): Error;
  /** No worker can be started at all (startWorker threw: a missing script, no tsx for the sources). */
  cannotStart(err: unknown): Error;
  /** The job's message cannot be sent (it cannot be cloned or serialised); the worker is fine. */
  unsendable(job: Job, err: unknown): Error;
  closed(): Error;
  /** Optional warm-up (see startAll): the message a new worker gets once it is ready, before its
   *  first job. The worker answers it like a job, with the message's id; any answer ends it. A
   *  job may be sent to a worker still warming (when no other is free): the worker must then
   *  cut its warm-up short; its answer to the warm-up is ignored. */
  warmup?(id: number): unknown;
}

/** Workers lost (and replaced on demand) since the pool was made, by why: a job over its time
 *  limit, a thread over its heap limit, a worker that ended on its own, a job aborted while
 *  running (the client went away). Reported as metrics (src/metrics). */
export interface WorkerLosses {
  timeout: number;
  memory: number;
  crash: number;
  aborted: number;
}

export interface WorkerPoolLimits {
  /** Workers at most. */
  size: number;
  /** Jobs that may wait beyond those running (Infinity: no limit). */
  queueLimit: number;
}

interface Pending<Job, Result> {
  id: number;
  job: Job;
  resolve(result: Result): void;
  reject(err: unknown): void;
  signal: AbortSignal | undefined;
  onAbort: (() => void) | undefined;
  worker: PoolWorker | null;
  timer: NodeJS.Timeout | undefined;
  startedAt: number;
  settled: boolean;
}

export class WorkerPool<Job, Result, Reply extends PoolReply> {
  private readonly workers = new Set<PoolWorker>();
  private readonly running = new Map<PoolWorker, Pending<Job, Result>>();
  private readonly queue: Pending<Job, Result>[] = [];
  /** Workers running their warm-up: its message id and time limit. They take a job only when no
   *  other worker is free. */
  private readonly warming = new Map<PoolWorker, { id: number; timer: NodeJS.Timeout }>();
  /** startAll() was called and the hooks have a warm-up: new workers get it. */
  private warm = false;
  private nextId = 1;
  private closed = false;
  private startFailures = 0;
  private holds = 0;
  /** Workers started since the pool was made (a lost one is replaced by a new start). */
  private startedCount = 0;
  private readonly lost: WorkerLosses = { timeout: 0, memory: 0, crash: 0, aborted: 0 };
  /** Moving average of job times, for Retry-After. */
  private averageMs: number;

  constructor(
    readonly limits: WorkerPoolLimits,
    private readonly hooks: WorkerPoolHooks<Job, Result, Reply>,
  ) {
    this.averageMs = hooks.initialAverageMs;
  }

  get isOpen(): boolean {
    return !this.closed;
  }

  /** Runs `job` on a worker. Rejects with the hooks' errors, or the signal's reason when it aborts
   *  (a waiting job leaves the queue, a running one loses its worker). */
  submit(job: Job, signal?: AbortSignal): Promise<Result> {
    if (this.closed) return Promise.reject(this.hooks.closed());
    if (signal?.aborted) return Promise.reject(signal.reason);
    const { size, queueLimit } = this.limits;
    if (this.running.size + this.queue.length >= size + queueLimit)
      return Promise.reject(this.hooks.busy(this.retryAfterSeconds()));
    return new Promise<Result>((resolve, reject) => {
      const p: Pending<Job, Result> = {
        id: this.nextId++,
        job,
        resolve,
        reject,
        signal,
        onAbort: undefined,
        worker: null,
        timer: undefined,
        startedAt: 0,
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

  stats(): { size: number; busy: number; queued: number; started: number; pids: number[]; lost: WorkerLosses } {
    const pids = [...this.workers].map((w) => w.pid).filter((pid): pid is number => pid !== undefined);
    const { size } = this.limits;
    const { running, queue, startedCount, lost } = this;
    return { size, busy: running.size, queued: queue.length, started: startedCount, pids, lost: { ...lost } };
  }

  /** For tests that need a full queue by construction: no job goes to a worker until the
   *  returned release is called; jobs wait in the queue meanwhile (and count against its limit). */
  hold(): () => void {
    this.holds++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.holds--;
      this.pump();
    };
  }

  /** Starts every worker now (up to `size`) instead of on demand, e.g. right after a server
   *  listens. With the hooks' `warmup`, each worker started from now on runs it once it is
   *  ready, unless jobs are already waiting for it (a waiting job is not delayed by a warm-up). */
  startAll(): void {
    if (this.closed) return;
    this.warm = this.hooks.warmup !== undefined;
    for (let n = this.workers.size; n < this.limits.size; n++) if (!this.start()) break;
    this.pump();
  }

  /** Stops every worker; running and waiting jobs reject with the hooks' `closed()`. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const p of [...this.queue.splice(0), ...this.running.values()]) this.settle(p, this.hooks.closed());
    this.running.clear();
    for (const { timer } of this.warming.values()) clearTimeout(timer);
    this.warming.clear();
    const workers = [...this.workers];
    this.workers.clear();
    // Until they are gone the stopping workers hold the process, as a pending timer would: an
    // idle pool's workers hold nothing, and whoever awaits close() would be cut off mid-way.
    for (const w of workers) w.keepAlive(true);
    await Promise.all(workers.map((w) => w.stop()));
  }

  /** Seconds until a worker is likely free: the work ahead of a new job spread over the workers. */
  private retryAfterSeconds(): number {
    const ahead = (this.running.size + this.queue.length) / this.limits.size;
    return Math.min(MAX_RETRY_AFTER, Math.max(MIN_RETRY_AFTER, Math.ceil((ahead * this.averageMs) / 1000)));
  }

  /** Hands waiting jobs to idle workers and starts workers for the rest (up to `size`). */
  private pump(): void {
    while (this.queue.length > 0 && !this.closed && this.holds === 0) {
      // A warming worker takes a job when no other is free: the warm-up yields to it (the
      // worker stops warming between two of its renders) rather than delay it.
      const free = [...this.workers].filter((w) => w.ready && !w.stopped && !this.running.has(w));
      const idle = free.find((w) => !this.warming.has(w)) ?? free[0];
      if (idle) {
        const next = this.queue.shift();
        this.endWarmup(idle);
        if (next) this.dispatch(idle, next);
        continue;
      }
      const starting = [...this.workers].filter((w) => !w.ready).length;
      if (this.workers.size >= this.limits.size || starting >= this.queue.length || !this.start()) break;
    }
    // While jobs wait or run, the workers (also those still starting) keep the process alive,
    // as a pending timer or socket would; an idle pool does not hold the process open.
    const active = this.queue.length + this.running.size > 0;
    for (const w of this.workers) w.keepAlive(active);
  }

  private start(): boolean {
    let worker: PoolWorker;
    try {
      worker = this.hooks.startWorker({
        onReply: (w, msg) => this.onReply(w, msg),
        onExit: (w, exit) => this.onExit(w, exit),
      });
    } catch (err) {
      // Nothing to start: fail what waits.
      const failure = this.hooks.cannotStart(err);
      for (const p of this.queue.splice(0)) this.settle(p, failure);
      return false;
    }
    this.workers.add(worker);
    this.startedCount++;
    return true;
  }

  private dispatch(worker: PoolWorker, p: Pending<Job, Result>): void {
    p.worker = worker;
    p.startedAt = performance.now();
    this.running.set(worker, p);
    try {
      // Not sent: the worker is gone, and its exit fails the job.
      if (!worker.send(this.hooks.request(p.id, p.job))) return;
    } catch (err) {
      this.running.delete(worker);
      this.settle(p, this.hooks.unsendable(p.job, err));
      return;
    }
    this.startClock(p);
  }

  /** (Re)starts a running job's time limit: its worker is stopped when it runs out. */
  private startClock(p: Pending<Job, Result>): void {
    clearTimeout(p.timer);
    p.timer = setTimeout(() => {
      if (p.worker) this.stopRunning(p.worker, this.hooks.timeout(p.job), 'timeout');
    }, this.hooks.timeLimitMs(p.job));
  }

  private onReply(worker: PoolWorker, msg: Reply): void {
    if (msg.type === 'ready') {
      this.startFailures = 0;
      if (this.warm && this.queue.length === 0) this.startWarmup(worker);
      this.pump();
      return;
    }
    const warmup = this.warming.get(worker);
    if (warmup && warmup.id === msg.id) {
      this.endWarmup(worker);
      this.pump();
      return;
    }
    const p = this.running.get(worker);
    if (!p || p.id !== msg.id) return;
    const effect = this.hooks.answer(msg as JobReply<Reply>, p.job);
    if ('progress' in effect) {
      this.startClock(p);
      return;
    }
    this.running.delete(worker);
    this.averageMs = 0.8 * this.averageMs + 0.2 * (performance.now() - p.startedAt);
    if ('result' in effect) this.settle(p, null, effect);
    else this.settle(p, effect.error);
    this.pump();
  }

  private onExit(worker: PoolWorker, exit: WorkerExit): void {
    this.workers.delete(worker);
    this.endWarmup(worker);
    const p = this.running.get(worker);
    if (!this.closed) this.lost[p && exit.outOfMemory ? 'memory' : 'crash']++;
    this.running.delete(worker);
    if (p) {
      this.settle(p, this.hooks.lost(p.job, exit));
    } else if (!worker.ready && ++this.startFailures >= MAX_START_FAILURES) {
      // Workers die while starting: do not retry forever; the next job tries again.
      this.startFailures = 0;
      const err = this.hooks.startFailed(exit.message, exit.error);
      for (const q of this.queue.splice(0)) this.settle(q, err);
    }
    this.pump();
  }

  private startWarmup(worker: PoolWorker): void {
    const id = this.nextId++;
    const timer = setTimeout(() => {
      this.warm = false;
      this.endWarmup(worker);
      this.workers.delete(worker);
      void worker.stop();
      this.pump();
    }, WARMUP_LIMIT_MS);
    timer.unref();
    this.warming.set(worker, { id, timer });
    try {
      // Not sent: the worker is gone, and its exit follows.
      if (!worker.send(this.hooks.warmup?.(id))) this.endWarmup(worker);
    } catch {
      this.endWarmup(worker);
    }
  }

  private endWarmup(worker: PoolWorker): void {
    clearTimeout(this.warming.get(worker)?.timer);
    this.warming.delete(worker);
  }

  /** Interrupts a running job: its worker is stopped and replaced on demand. */
  private stopRunning(worker: PoolWorker, reason: unknown, why: 'timeout' | 'aborted'): void {
    this.lost[why]++;
    const p = this.running.get(worker);
    this.running.delete(worker);
    this.workers.delete(worker);
    void worker.stop();
    if (p) this.settle(p, reason);
    this.pump();
  }

  private abort(p: Pending<Job, Result>): void {
    if (p.settled) return;
    const reason = p.signal?.reason ?? new DOMException(`The ${this.hooks.noun} was aborted`, 'AbortError');
    if (p.worker) {
      this.stopRunning(p.worker, reason, 'aborted');
      return;
    }
    const i = this.queue.indexOf(p);
    if (i >= 0) this.queue.splice(i, 1);
    this.settle(p, reason);
    this.pump();
  }

  private settle(p: Pending<Job, Result>, err: unknown, answer?: { result: Result }): void {
    if (p.settled) return;
    p.settled = true;
    clearTimeout(p.timer);
    if (p.onAbort) p.signal?.removeEventListener('abort', p.onAbort);
    if (answer) p.resolve(answer.result);
    else p.reject(err);
  }
}
