// Markdown and HTML previews on worker threads, so that a large or hostile document never holds
// up the event loop (one 1 MB table used to block every other request for seconds).
//
// The threads are the render pool's (src/srs/render-pool): the same launcher (dist/, or the
// TypeScript sources through tsx under vitest) and the same slot (heap limit, ready, exit
// classification). The queue is this file's: the render pool's is bound up with render jobs
// (formats, the template cache and its counters, its error classes). Workers start on demand up
// to `size`; at most `size + queueLimit` previews are in the pool and one more is refused at once
// (PreviewBusyError → 503 with Retry-After). A preview over its time limit or heap limit, aborted
// while running, or whose worker crashed loses its worker; the next preview gets a fresh one.
// Workers run below the event loop's priority and hand back the HTML already escaped and encoded
// as JSON, so that the event loop's share of a large preview is little more than its I/O.

import { availableParallelism } from 'node:os';
import { WorkerSlot, type SlotExit } from '../srs/render-pool/worker-slot.js';
import { workerLaunch, type WorkerLaunch } from '../srs/render-pool/worker-script.js';
import type { PreviewType } from './markdown.js';
import type { PreviewJson, PreviewReply, PreviewRequest } from './preview-protocol.js';

export type { PreviewJson } from './preview-protocol.js';

export interface PreviewPoolOptions {
  /** Worker threads (default max(1, CPU cores − 1)), started on demand. */
  size?: number;
  /** Previews that may wait for a worker beyond those running (default 4 × size). */
  queueLimit?: number;
  /** Longest preview, from the moment a worker takes it (default 10 s). */
  timeoutMs?: number;
  /** A worker's heap limit (V8 old generation) in MB (default 512). */
  maxMemoryMb?: number;
  /** Worker entry module (tests): a path or file URL; `.ts` files run through tsx. */
  workerScript?: string | URL;
}

export class PreviewPoolError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** The queue is full: come back later. */
export class PreviewBusyError extends PreviewPoolError {
  constructor(readonly retryAfterSeconds: number) {
    super(`the preview is busy; retry in ${retryAfterSeconds} s`);
  }
}

/** The preview ran over its time limit; its worker was terminated. */
export class PreviewTimeoutError extends PreviewPoolError {
  constructor(readonly timeoutMs: number) {
    super(`the preview took longer than ${timeoutMs / 1000} s and was stopped`);
  }
}

/** The preview hit the worker's heap limit; the worker died. */
export class PreviewMemoryError extends PreviewPoolError {
  constructor(readonly maxMemoryMb: number) {
    super(`the preview needs more than ${maxMemoryMb} MB of memory and was stopped`);
  }
}

/** A worker that failed, crashed or could not start; the pool was closed. For logs, not clients. */
export class PreviewFailedError extends PreviewPoolError {}

const RUNNING_FROM_SOURCES = import.meta.url.endsWith('.ts');
const WORKER_ENTRY = new URL(RUNNING_FROM_SOURCES ? './preview-worker.ts' : './preview-worker.js', import.meta.url);
/** Workers that die before they are ready, in a row, before waiting previews are failed. */
const MAX_START_FAILURES = 3;
const MAX_RETRY_AFTER_SECONDS = 60;

type Slot = WorkerSlot<PreviewReply>;

interface Pending {
  id: number;
  source: string;
  format: PreviewType;
  resolve(json: PreviewJson): void;
  reject(err: unknown): void;
  signal: AbortSignal | undefined;
  onAbort: (() => void) | undefined;
  slot: Slot | null;
  timer: NodeJS.Timeout | undefined;
  startedAt: number;
  settled: boolean;
}

function integerOption(name: string, value: number | undefined, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < min) throw new RangeError(`preview pool: ${name} must be an integer ≥ ${min} (got ${String(value)})`);
  return value;
}

export class PreviewPool {
  readonly size: number;
  readonly queueLimit: number;
  readonly timeoutMs: number;
  readonly maxMemoryMb: number;
  private readonly workerScript: string | URL;
  private launch: WorkerLaunch | undefined;
  private readonly slots = new Set<Slot>();
  private readonly running = new Map<Slot, Pending>();
  private readonly queue: Pending[] = [];
  private nextId = 1;
  private closed = false;
  private startFailures = 0;
  /** Moving average of preview times, for Retry-After. */
  private averageMs = 500;

  constructor(opts: PreviewPoolOptions = {}) {
    this.size = integerOption('size', opts.size, Math.max(1, availableParallelism() - 1), 1);
    this.queueLimit = integerOption('queueLimit', opts.queueLimit, 4 * this.size, 0);
    this.timeoutMs = integerOption('timeoutMs', opts.timeoutMs, 10_000, 1);
    this.maxMemoryMb = integerOption('maxMemoryMb', opts.maxMemoryMb, 512, 16);
    this.workerScript = opts.workerScript ?? WORKER_ENTRY;
  }

  /** The sanitised HTML of `source` (preview() of markdown.ts) as a JSON string literal in UTF-8
   *  bytes, ready to go into an answer: made, escaped and encoded on a worker thread. Rejects
   *  with PreviewBusyError, PreviewTimeoutError, PreviewMemoryError, PreviewFailedError, or the
   *  signal's reason when it aborts (a waiting preview leaves the queue, a running one is stopped). */
  previewJson(source: string, format: PreviewType, signal?: AbortSignal): Promise<PreviewJson> {
    if (this.closed) return Promise.reject(new PreviewFailedError('the preview pool is closed'));
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.running.size + this.queue.length >= this.size + this.queueLimit) return Promise.reject(new PreviewBusyError(this.retryAfterSeconds()));
    return new Promise<PreviewJson>((resolve, reject) => {
      const p: Pending = { id: this.nextId++, source, format, resolve, reject, signal, onAbort: undefined, slot: null, timer: undefined, startedAt: 0, settled: false };
      if (signal) {
        p.onAbort = () => this.abort(p);
        signal.addEventListener('abort', p.onAbort, { once: true });
      }
      this.queue.push(p);
      this.pump();
    });
  }

  stats(): { size: number; busy: number; queued: number } {
    return { size: this.size, busy: this.running.size, queued: this.queue.length };
  }

  /** Terminates every worker; running and waiting previews reject with PreviewFailedError. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const closed = new PreviewFailedError('the preview pool is closed');
    for (const p of [...this.queue.splice(0), ...this.running.values()]) this.settle(p, closed);
    const slots = [...this.slots];
    this.slots.clear();
    await Promise.all(slots.map((s) => s.stop()));
  }

  /** Seconds until a worker is likely free: the work ahead of a new preview spread over the workers. */
  private retryAfterSeconds(): number {
    const ahead = (this.running.size + this.queue.length) / this.size;
    return Math.min(MAX_RETRY_AFTER_SECONDS, Math.max(1, Math.ceil((ahead * this.averageMs) / 1000)));
  }

  /** Hands waiting previews to idle workers and starts workers for the rest (up to `size`). */
  private pump(): void {
    while (this.queue.length > 0 && !this.closed) {
      const idle = [...this.slots].find((s) => s.ready && !this.running.has(s));
      if (idle) {
        this.dispatch(idle, this.queue.shift()!);
        continue;
      }
      const starting = [...this.slots].filter((s) => !s.ready).length;
      if (this.slots.size >= this.size || starting >= this.queue.length || !this.spawn()) break;
    }
    // While previews wait or run, the workers keep the process alive; an idle pool does not.
    const active = this.queue.length + this.running.size > 0;
    for (const s of this.slots) s.keepAlive(active);
  }

  private spawn(): boolean {
    try {
      this.launch ??= workerLaunch(this.workerScript);
      const slot: Slot = new WorkerSlot<PreviewReply>(
        this.launch,
        this.maxMemoryMb,
        { onReply: (s, msg) => this.onReply(s, msg), onUnexpectedExit: (s, exit) => this.onUnexpectedExit(s, exit) },
        'preview-worker',
      );
      this.slots.add(slot);
      return true;
    } catch (err) {
      // Nothing to start (a missing script, no tsx for TypeScript sources): fail what waits.
      const failure = new PreviewFailedError(`cannot start a preview worker: ${(err as Error).message}`, { cause: err });
      for (const p of this.queue.splice(0)) this.settle(p, failure);
      return false;
    }
  }

  private dispatch(slot: Slot, p: Pending): void {
    p.slot = slot;
    p.startedAt = performance.now();
    this.running.set(slot, p);
    const request: PreviewRequest = { type: 'preview', id: p.id, source: p.source, format: p.format };
    slot.worker.postMessage(request);
    p.timer = setTimeout(() => this.stopRunning(slot, new PreviewTimeoutError(this.timeoutMs)), this.timeoutMs);
  }

  private onReply(slot: Slot, msg: PreviewReply): void {
    if (msg.type === 'ready') {
      this.startFailures = 0;
      this.pump();
      return;
    }
    const p = this.running.get(slot);
    if (!p || p.id !== msg.id) return;
    this.running.delete(slot);
    this.averageMs = 0.8 * this.averageMs + 0.2 * (performance.now() - p.startedAt);
    if (msg.type === 'done') this.settle(p, null, { bytes: Buffer.from(msg.bytes.buffer, msg.bytes.byteOffset, msg.bytes.byteLength), start: msg.start, end: msg.end });
    else this.settle(p, new PreviewFailedError(`preview failed: ${msg.message}`, { cause: Object.assign(new Error(msg.message), msg.stack !== undefined ? { stack: msg.stack } : {}) }));
    this.pump();
  }

  private onUnexpectedExit(slot: Slot, exit: SlotExit): void {
    this.slots.delete(slot);
    const p = this.running.get(slot);
    this.running.delete(slot);
    if (p) {
      this.settle(p, exit.outOfMemory ? new PreviewMemoryError(this.maxMemoryMb) : new PreviewFailedError(`the preview worker stopped unexpectedly: ${exit.message}`, exit.error ? { cause: exit.error } : undefined));
    } else if (!slot.ready && ++this.startFailures >= MAX_START_FAILURES) {
      // Workers die while starting: do not retry forever; the next preview() tries again.
      this.startFailures = 0;
      const err = new PreviewFailedError(`preview workers fail to start: ${exit.message}`, exit.error ? { cause: exit.error } : undefined);
      for (const q of this.queue.splice(0)) this.settle(q, err);
    }
    this.pump();
  }

  /** Interrupts a running preview: its worker is terminated and replaced on demand. */
  private stopRunning(slot: Slot, reason: unknown): void {
    const p = this.running.get(slot);
    this.running.delete(slot);
    this.slots.delete(slot);
    void slot.stop();
    if (p) this.settle(p, reason);
    this.pump();
  }

  private abort(p: Pending): void {
    if (p.settled) return;
    const reason = p.signal?.reason ?? new DOMException('The preview was aborted', 'AbortError');
    if (p.slot) {
      this.stopRunning(p.slot, reason);
      return;
    }
    const i = this.queue.indexOf(p);
    if (i >= 0) this.queue.splice(i, 1);
    this.settle(p, reason);
    this.pump();
  }

  private settle(p: Pending, err: unknown, json?: PreviewJson): void {
    if (p.settled) return;
    p.settled = true;
    clearTimeout(p.timer);
    if (p.onAbort) p.signal?.removeEventListener('abort', p.onAbort);
    if (json !== undefined) p.resolve(json);
    else p.reject(err);
  }
}
