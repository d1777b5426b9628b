// The render pool: report renders on worker threads, so the HTTP event loop never runs the
// engine. Workers start on demand up to `size`; jobs beyond them wait in a bounded FIFO queue
// and a full queue rejects at once (PoolBusyError → 503 Retry-After). A render over its time
// limit, over its heap limit, aborted while running, or whose worker crashed loses its worker;
// the pool starts a fresh one for the next job.

import { availableParallelism } from 'node:os';
import {
  PoolBusyError,
  RenderFailedError,
  RenderMemoryError,
  RenderPoolClosedError,
  RenderTimeoutError,
  TemplateRenderError,
} from './errors.js';
import type { WorkerReply } from './protocol.js';
import type { RenderJob, RenderOutcome, RenderPool, RenderPoolOptions, RenderPoolStats } from './types.js';
import { WorkerSlot, type SlotExit } from './worker-slot.js';
import { workerLaunch, type WorkerLaunch } from './worker-script.js';

const FORMATS = new Set(['html', 'pdf', 'frx']);
/** Workers that die before they are ready, in a row, before queued jobs are failed. */
const MAX_START_FAILURES = 3;
/** Retry-After bounds (seconds). */
const MIN_RETRY_AFTER = 1;
const MAX_RETRY_AFTER = 60;

interface Pending {
  id: number;
  job: RenderJob;
  resolve(outcome: RenderOutcome): void;
  reject(err: unknown): void;
  signal: AbortSignal | undefined;
  onAbort: (() => void) | undefined;
  slot: WorkerSlot | null;
  timer: NodeJS.Timeout | undefined;
  startedAt: number;
  settled: boolean;
}

export interface ResolvedPoolOptions {
  size: number;
  queueLimit: number;
  timeoutMs: number;
  maxMemoryMb: number;
}

function integerOption(name: string, value: number | undefined, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min) {
    throw new RangeError(`render pool: ${name} must be an integer ≥ ${min} (got ${String(value)})`);
  }
  return value;
}

export function resolvePoolOptions(opts: RenderPoolOptions = {}): ResolvedPoolOptions {
  const size = integerOption('size', opts.size, Math.max(1, availableParallelism() - 1), 1);
  return {
    size,
    queueLimit: integerOption('queueLimit', opts.queueLimit, 4 * size, 0),
    timeoutMs: integerOption('timeoutMs', opts.timeoutMs, 60_000, 1),
    // V8 needs some room for the engine's modules themselves.
    maxMemoryMb: integerOption('maxMemoryMb', opts.maxMemoryMb, 512, 16),
  };
}

export class RenderWorkerPool implements RenderPool {
  readonly options: ResolvedPoolOptions;
  private readonly workerScript: RenderPoolOptions['workerScript'];
  private launch: WorkerLaunch | undefined;
  private readonly slots = new Set<WorkerSlot>();
  private readonly running = new Map<WorkerSlot, Pending>();
  private readonly queue: Pending[] = [];
  private nextId = 1;
  private closed = false;
  private startFailures = 0;
  /** Moving average of render times, for Retry-After. */
  private averageMs = 1000;
  private readonly cache = { hits: 0, misses: 0 };

  constructor(opts: RenderPoolOptions = {}) {
    this.options = resolvePoolOptions(opts);
    this.workerScript = opts.workerScript;
  }

  render(job: RenderJob, signal?: AbortSignal): Promise<RenderOutcome> {
    if (this.closed) return Promise.reject(new RenderPoolClosedError());
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (typeof job?.templatePath !== 'string' || job.templatePath === '') return Promise.reject(new TypeError('render job: templatePath must be a non-empty string'));
    if (!FORMATS.has(job.format)) return Promise.reject(new TemplateRenderError(`unsupported output format "${String(job.format)}"`));
    const { size, queueLimit } = this.options;
    if (this.running.size + this.queue.length >= size + queueLimit) return Promise.reject(new PoolBusyError(this.retryAfterSeconds()));

    return new Promise<RenderOutcome>((resolve, reject) => {
      const p: Pending = { id: this.nextId++, job, resolve, reject, signal, onAbort: undefined, slot: null, timer: undefined, startedAt: 0, settled: false };
      if (signal) {
        p.onAbort = () => this.abort(p);
        signal.addEventListener('abort', p.onAbort, { once: true });
      }
      this.queue.push(p);
      this.pump();
    });
  }

  stats(): RenderPoolStats {
    return { size: this.options.size, busy: this.running.size, queued: this.queue.length, templateCache: { ...this.cache } };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const p of this.queue.splice(0)) this.settle(p, new RenderPoolClosedError());
    for (const p of [...this.running.values()]) this.settle(p, new RenderPoolClosedError());
    const slots = [...this.slots];
    this.slots.clear();
    await Promise.all(slots.map((s) => s.stop()));
  }

  /** Seconds until a slot is likely free: the work ahead of a new job spread over the workers. */
  private retryAfterSeconds(): number {
    const ahead = (this.running.size + this.queue.length) / this.options.size;
    return Math.min(MAX_RETRY_AFTER, Math.max(MIN_RETRY_AFTER, Math.ceil((ahead * this.averageMs) / 1000)));
  }

  /** Hands queued jobs to idle workers and starts workers for the rest (up to `size`). */
  private pump(): void {
    this.fillWorkers();
    this.updateKeepAlive();
  }

  private fillWorkers(): void {
    while (this.queue.length > 0 && !this.closed) {
      const idle = [...this.slots].find((s) => s.ready && !this.running.has(s));
      if (idle) {
        this.dispatch(idle, this.queue.shift() as Pending);
        continue;
      }
      const starting = [...this.slots].filter((s) => !s.ready).length;
      if (this.slots.size >= this.options.size || starting >= this.queue.length) return;
      if (!this.spawn()) return;
    }
  }

  private spawn(): boolean {
    let slot: WorkerSlot;
    try {
      this.launch ??= workerLaunch(this.workerScript);
      slot = new WorkerSlot(this.launch, this.options.maxMemoryMb, {
        onReply: (s, msg) => this.onReply(s, msg),
        onUnexpectedExit: (s, exit) => this.onUnexpectedExit(s, exit),
      });
    } catch (err) {
      // Nothing to start (a missing script, no tsx for TypeScript sources): fail what waits.
      const failure = err instanceof RenderFailedError ? err : new RenderFailedError(`cannot start a render worker: ${(err as Error).message}`, { cause: err });
      for (const p of this.queue.splice(0)) this.settle(p, failure);
      return false;
    }
    this.slots.add(slot);
    return true;
  }

  private dispatch(slot: WorkerSlot, p: Pending): void {
    p.slot = slot;
    p.startedAt = performance.now();
    this.running.set(slot, p);
    const { requestId: _requestId, ...job } = p.job;
    try {
      slot.worker.postMessage({ type: 'render', id: p.id, job });
    } catch (err) {
      // Data that cannot be cloned (functions, symbols…): the caller's bug, the worker is fine.
      this.release(slot);
      this.settle(p, new RenderFailedError(`the render job cannot be sent to a worker: ${(err as Error).message}`, { cause: err }));
      return;
    }
    p.timer = setTimeout(() => this.stopRunning(slot, new RenderTimeoutError(this.options.timeoutMs)), this.options.timeoutMs);
  }

  private onReply(slot: WorkerSlot, msg: WorkerReply): void {
    if (msg.type === 'ready') {
      this.startFailures = 0;
      this.pump();
      return;
    }
    const p = this.running.get(slot);
    if (!p || p.id !== msg.id) return;
    if (msg.cache === 'hit') this.cache.hits++;
    else if (msg.cache === 'miss') this.cache.misses++;
    this.release(slot);
    this.averageMs = 0.8 * this.averageMs + 0.2 * (performance.now() - p.startedAt);
    if (msg.type === 'done') {
      const output = Buffer.from(msg.output.buffer, msg.output.byteOffset, msg.output.byteLength);
      this.settle(p, null, { output, contentType: msg.contentType, pages: msg.pages, warnings: msg.warnings });
    } else if (msg.kind === 'template') {
      this.settle(p, new TemplateRenderError(msg.message));
    } else {
      const cause = Object.assign(new Error(msg.message), msg.stack !== undefined ? { stack: msg.stack } : {});
      this.settle(p, new RenderFailedError(`render failed${requestText(p)}: ${msg.message}`, { cause }));
    }
    this.pump();
  }

  private onUnexpectedExit(slot: WorkerSlot, exit: SlotExit): void {
    this.slots.delete(slot);
    const p = this.running.get(slot);
    this.running.delete(slot);
    if (p) {
      const err = exit.outOfMemory
        ? new RenderMemoryError(this.options.maxMemoryMb)
        : new RenderFailedError(`the render worker stopped unexpectedly${requestText(p)}: ${exit.message}`, exit.error ? { cause: exit.error } : undefined);
      this.settle(p, err);
    } else if (!slot.ready && ++this.startFailures >= MAX_START_FAILURES) {
      // Workers die while starting: do not retry forever; the next render() tries again.
      this.startFailures = 0;
      const err = new RenderFailedError(`render workers fail to start: ${exit.message}`, exit.error ? { cause: exit.error } : undefined);
      for (const q of this.queue.splice(0)) this.settle(q, err);
    }
    this.pump();
  }

  /** Interrupts a running job: its worker is terminated and replaced on demand. */
  private stopRunning(slot: WorkerSlot, reason: unknown): void {
    const p = this.running.get(slot);
    this.running.delete(slot);
    this.slots.delete(slot);
    void slot.stop();
    if (p) this.settle(p, reason);
    this.pump();
  }

  private abort(p: Pending): void {
    if (p.settled) return;
    const reason = p.signal?.reason ?? new DOMException('The render was aborted', 'AbortError');
    if (p.slot) {
      this.stopRunning(p.slot, reason);
      return;
    }
    const i = this.queue.indexOf(p);
    if (i >= 0) this.queue.splice(i, 1);
    this.settle(p, reason);
    this.updateKeepAlive();
  }

  private release(slot: WorkerSlot): void {
    this.running.delete(slot);
  }

  /** While jobs wait or run, the workers (also those still starting) keep the process alive,
   *  as a pending timer or socket would; an idle pool does not hold the process open. */
  private updateKeepAlive(): void {
    const active = this.queue.length + this.running.size > 0;
    for (const s of this.slots) s.keepAlive(active);
  }

  private settle(p: Pending, err: unknown, outcome?: RenderOutcome): void {
    if (p.settled) return;
    p.settled = true;
    clearTimeout(p.timer);
    if (p.onAbort) p.signal?.removeEventListener('abort', p.onAbort);
    if (outcome) p.resolve(outcome);
    else p.reject(err);
  }
}

function requestText(p: Pending): string {
  return p.job.requestId ? ` (request ${p.job.requestId})` : '';
}

/** A render pool with the given limits (see RenderPoolOptions for the defaults). */
export function createRenderPool(opts: RenderPoolOptions = {}): RenderPool {
  return new RenderWorkerPool(opts);
}
