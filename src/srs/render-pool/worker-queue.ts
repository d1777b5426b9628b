// Jobs over worker threads, the mechanics the render pool (pool.ts) and the preview pool
// (src/system/preview-pool.ts) share: workers start on demand up to `size` in WorkerSlots; jobs
// beyond them wait in a bounded FIFO queue and a full queue refuses at once (with a Retry-After
// from the recent job times); a job over its time limit, over its heap limit, aborted while
// running, or whose worker crashed loses its worker, and a fresh one serves the next job. What
// a job is, what a worker answers and which errors a pool rejects with are the pool's (hooks).

import { availableParallelism } from 'node:os';
import { WorkerSlot, type SlotExit, type SlotReply } from './worker-slot.js';
import { workerLaunch, type WorkerLaunch } from './worker-script.js';

/** Workers that die before they are ready, in a row, before waiting jobs are failed. */
const MAX_START_FAILURES = 3;
/** Retry-After bounds (seconds). */
const MIN_RETRY_AFTER = 1;
const MAX_RETRY_AFTER = 60;

export interface WorkerQueueLimits {
  size: number;
  queueLimit: number;
  timeoutMs: number;
  maxMemoryMb: number;
}

export interface WorkerQueueOptionsInput {
  size?: number;
  queueLimit?: number;
  timeoutMs?: number;
  maxMemoryMb?: number;
}

/** A worker's answer to a job: what it has `id` on. */
export type JobReply = SlotReply & { id?: number };

export interface WorkerQueueHooks<Job, Result, Reply extends JobReply> {
  /** What the queue's workers are called in messages and thread names: `render`, `preview`. */
  noun: string;
  /** The first guess of a job's time, for Retry-After until jobs have run. */
  initialAverageMs: number;
  /** The message posted to a worker for a job. */
  request(id: number, job: Job): unknown;
  /** A worker's answer (not `ready`) to the running job: its result, or the error to reject with. */
  answer(reply: Exclude<Reply, { type: 'ready' }>, job: Job): { result: Result } | { error: unknown };
  /** Names a job in failure messages (` (request …)`), or ''. */
  describe(job: Job): string;
  busy(retryAfterSeconds: number): Error;
  timeout(timeoutMs: number): Error;
  outOfMemory(maxMemoryMb: number): Error;
  /** Anything else (for logs, not clients). */
  failed(message: string, cause?: unknown): Error;
  /** No worker can be started (a missing script, no tsx for TypeScript sources). */
  cannotStart(err: unknown): Error;
  closed(): Error;
}

interface Pending<Job, Result, Reply extends JobReply> {
  id: number;
  job: Job;
  resolve(result: Result): void;
  reject(err: unknown): void;
  signal: AbortSignal | undefined;
  onAbort: (() => void) | undefined;
  slot: WorkerSlot<Reply> | null;
  timer: NodeJS.Timeout | undefined;
  startedAt: number;
  settled: boolean;
}

function integerOption(pool: string, name: string, value: number | undefined, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min) {
    throw new RangeError(`${pool}: ${name} must be an integer ≥ ${min} (got ${String(value)})`);
  }
  return value;
}

/** Limits from what was given: size max(1, cores − 1), queue 4 × size, heap 512 MB by default. */
export function resolveQueueLimits(
  pool: string,
  opts: WorkerQueueOptionsInput,
  defaultTimeoutMs: number,
): WorkerQueueLimits {
  const size = integerOption(pool, 'size', opts.size, Math.max(1, availableParallelism() - 1), 1);
  return {
    size,
    queueLimit: integerOption(pool, 'queueLimit', opts.queueLimit, 4 * size, 0),
    timeoutMs: integerOption(pool, 'timeoutMs', opts.timeoutMs, defaultTimeoutMs, 1),
    // V8 needs some room for the worker's modules themselves.
    maxMemoryMb: integerOption(pool, 'maxMemoryMb', opts.maxMemoryMb, 512, 16),
  };
}

export class WorkerQueue<Job, Result, Reply extends JobReply> {
  private launch: WorkerLaunch | undefined;
  private readonly slots = new Set<WorkerSlot<Reply>>();
  private readonly running = new Map<WorkerSlot<Reply>, Pending<Job, Result, Reply>>();
  private readonly queue: Pending<Job, Result, Reply>[] = [];
  private nextId = 1;
  private closed = false;
  private startFailures = 0;
  /** Moving average of job times, for Retry-After. */
  private averageMs: number;

  constructor(
    readonly limits: WorkerQueueLimits,
    private readonly workerScript: string | URL | undefined,
    private readonly hooks: WorkerQueueHooks<Job, Result, Reply>,
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
      const p: Pending<Job, Result, Reply> = {
        id: this.nextId++,
        job,
        resolve,
        reject,
        signal,
        onAbort: undefined,
        slot: null,
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

  stats(): { size: number; busy: number; queued: number } {
    return { size: this.limits.size, busy: this.running.size, queued: this.queue.length };
  }

  /** Terminates every worker; running and waiting jobs reject with the hooks' `closed()`. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const p of [...this.queue.splice(0), ...this.running.values()]) this.settle(p, this.hooks.closed());
    const slots = [...this.slots];
    this.slots.clear();
    await Promise.all(slots.map((s) => s.stop()));
  }

  /** Seconds until a worker is likely free: the work ahead of a new job spread over the workers. */
  private retryAfterSeconds(): number {
    const ahead = (this.running.size + this.queue.length) / this.limits.size;
    return Math.min(MAX_RETRY_AFTER, Math.max(MIN_RETRY_AFTER, Math.ceil((ahead * this.averageMs) / 1000)));
  }

  /** Hands waiting jobs to idle workers and starts workers for the rest (up to `size`). */
  private pump(): void {
    while (this.queue.length > 0 && !this.closed) {
      const idle = [...this.slots].find((s) => s.ready && !this.running.has(s));
      if (idle) {
        this.dispatch(idle, this.queue.shift()!);
        continue;
      }
      const starting = [...this.slots].filter((s) => !s.ready).length;
      if (this.slots.size >= this.limits.size || starting >= this.queue.length || !this.spawn()) break;
    }
    // While jobs wait or run, the workers (also those still starting) keep the process alive,
    // as a pending timer or socket would; an idle pool does not hold the process open.
    const active = this.queue.length + this.running.size > 0;
    for (const s of this.slots) s.keepAlive(active);
  }

  private spawn(): boolean {
    let slot: WorkerSlot<Reply>;
    try {
      this.launch ??= workerLaunch(this.workerScript);
      slot = new WorkerSlot<Reply>(
        this.launch,
        this.limits.maxMemoryMb,
        { onReply: (s, msg) => this.onReply(s, msg), onUnexpectedExit: (s, exit) => this.onUnexpectedExit(s, exit) },
        `${this.hooks.noun}-worker`,
      );
    } catch (err) {
      // Nothing to start: fail what waits.
      const failure = this.hooks.cannotStart(err);
      for (const p of this.queue.splice(0)) this.settle(p, failure);
      return false;
    }
    this.slots.add(slot);
    return true;
  }

  private dispatch(slot: WorkerSlot<Reply>, p: Pending<Job, Result, Reply>): void {
    p.slot = slot;
    p.startedAt = performance.now();
    this.running.set(slot, p);
    try {
      slot.worker.postMessage(this.hooks.request(p.id, p.job));
    } catch (err) {
      // A job that cannot be cloned (functions, symbols…): the caller's bug, the worker is fine.
      this.running.delete(slot);
      this.settle(
        p,
        this.hooks.failed(`the ${this.hooks.noun} job cannot be sent to a worker: ${(err as Error).message}`, err),
      );
      return;
    }
    const { timeoutMs } = this.limits;
    p.timer = setTimeout(() => this.stopRunning(slot, this.hooks.timeout(timeoutMs)), timeoutMs);
  }

  private onReply(slot: WorkerSlot<Reply>, msg: Reply): void {
    if (msg.type === 'ready') {
      this.startFailures = 0;
      this.pump();
      return;
    }
    const p = this.running.get(slot);
    if (!p || p.id !== msg.id) return;
    this.running.delete(slot);
    this.averageMs = 0.8 * this.averageMs + 0.2 * (performance.now() - p.startedAt);
    const answer = this.hooks.answer(msg as Exclude<Reply, { type: 'ready' }>, p.job);
    if ('result' in answer) this.settle(p, null, answer);
    else this.settle(p, answer.error);
    this.pump();
  }

  private onUnexpectedExit(slot: WorkerSlot<Reply>, exit: SlotExit): void {
    this.slots.delete(slot);
    const p = this.running.get(slot);
    this.running.delete(slot);
    const cause = exit.error;
    if (p) {
      const err = exit.outOfMemory
        ? this.hooks.outOfMemory(this.limits.maxMemoryMb)
        : this.hooks.failed(
            `the ${this.hooks.noun} worker stopped unexpectedly${this.hooks.describe(p.job)}: ${exit.message}`,
            cause,
          );
      this.settle(p, err);
    } else if (!slot.ready && ++this.startFailures >= MAX_START_FAILURES) {
      // Workers die while starting: do not retry forever; the next job tries again.
      this.startFailures = 0;
      const err = this.hooks.failed(`${this.hooks.noun} workers fail to start: ${exit.message}`, cause);
      for (const q of this.queue.splice(0)) this.settle(q, err);
    }
    this.pump();
  }

  /** Interrupts a running job: its worker is terminated and replaced on demand. */
  private stopRunning(slot: WorkerSlot<Reply>, reason: unknown): void {
    const p = this.running.get(slot);
    this.running.delete(slot);
    this.slots.delete(slot);
    void slot.stop();
    if (p) this.settle(p, reason);
    this.pump();
  }

  private abort(p: Pending<Job, Result, Reply>): void {
    if (p.settled) return;
    const reason = p.signal?.reason ?? new DOMException(`The ${this.hooks.noun} was aborted`, 'AbortError');
    if (p.slot) {
      this.stopRunning(p.slot, reason);
      return;
    }
    const i = this.queue.indexOf(p);
    if (i >= 0) this.queue.splice(i, 1);
    this.settle(p, reason);
    this.pump();
  }

  private settle(p: Pending<Job, Result, Reply>, err: unknown, answer?: { result: Result }): void {
    if (p.settled) return;
    p.settled = true;
    clearTimeout(p.timer);
    if (p.onAbort) p.signal?.removeEventListener('abort', p.onAbort);
    if (answer) p.resolve(answer.result);
    else p.reject(err);
  }
}
