// Markdown and HTML previews on worker threads, so that a large or hostile document never holds
// up the event loop (one 1 MB table used to block every other request for seconds).
//
// The threads and their queue are src/lib/worker-pool's, as the render pool's: the same launcher
// (dist/, or the TypeScript sources through tsx under vitest), threads (heap limit, ready, exit
// classification) and queue. Workers start on demand up to `size`; at most
// `size + queueLimit` previews are in the pool and one more is refused at once
// (PoolBusyError → 503 with Retry-After). A preview over its time limit or heap limit, aborted
// while running, or whose worker crashed loses its worker; the next preview gets a fresh one.
// Workers run below the event loop's priority and hand back the HTML already escaped and encoded
// as JSON, so that the event loop's share of a large preview is little more than its I/O.

import {
  entryBeside,
  failureHooks,
  jobFailed,
  JobMemoryError,
  JobTimeoutError,
  PoolBusyError,
  resolvePoolLimits,
  threadWorkers,
  WorkerPool,
} from '../lib/worker-pool/index.js';
import type { PreviewType } from './markdown.js';
import type { PreviewJson, PreviewReply, PreviewRequest } from './preview-protocol.js';

export type { PreviewJson } from './preview-protocol.js';
/** What previews reject with (src/lib/worker-pool's errors of a pool of jobs). */
export {
  JobFailedError,
  JobMemoryError,
  JobTimeoutError,
  PoolBusyError,
  PoolClosedError,
} from '../lib/worker-pool/index.js';

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

interface PreviewJob {
  source: string;
  format: PreviewType;
}

export class PreviewPool {
  readonly size: number;
  readonly queueLimit: number;
  readonly timeoutMs: number;
  readonly maxMemoryMb: number;
  private readonly queue: WorkerPool<PreviewJob, PreviewJson, PreviewReply>;

  constructor(opts: PreviewPoolOptions = {}) {
    const limits = resolvePoolLimits('preview pool', opts, 10_000);
    ({
      size: this.size,
      queueLimit: this.queueLimit,
      timeoutMs: this.timeoutMs,
      maxMemoryMb: this.maxMemoryMb,
    } = limits);
    this.queue = new WorkerPool<PreviewJob, PreviewJson, PreviewReply>(limits, {
      noun: 'preview',
      initialAverageMs: 500,
      startWorker: threadWorkers({
        script: opts.workerScript ?? entryBeside(import.meta.url, 'preview-worker'),
        noun: 'preview',
        maxMemoryMb: limits.maxMemoryMb,
      }),
      request: (id, job): PreviewRequest => ({ type: 'preview', id, ...job }),
      timeLimitMs: () => limits.timeoutMs,
      answer: (msg) =>
        msg.type === 'done'
          ? {
              result: {
                bytes: Buffer.from(msg.bytes.buffer, msg.bytes.byteOffset, msg.bytes.byteLength),
                start: msg.start,
                end: msg.end,
              },
            }
          : { error: jobFailed('preview failed', msg) },
      ...failureHooks<PreviewJob>({
        noun: 'preview',
        busy: (seconds) => new PoolBusyError(seconds, 'the preview'),
        timeout: () =>
          new JobTimeoutError(
            limits.timeoutMs,
            `the preview took longer than ${limits.timeoutMs / 1000} s and was stopped`,
          ),
        outOfMemory: () =>
          new JobMemoryError(
            limits.maxMemoryMb,
            `the preview needs more than ${limits.maxMemoryMb} MB of memory and was stopped`,
          ),
      }),
    });
  }

  /** The sanitised HTML of `source` (preview() of markdown.ts) as a JSON string literal in UTF-8
   *  bytes, ready to go into an answer: made, escaped and encoded on a worker thread. Rejects
   *  with PoolBusyError, JobTimeoutError, JobMemoryError, JobFailedError, or the
   *  signal's reason when it aborts (a waiting preview leaves the queue, a running one is stopped). */
  previewJson(source: string, format: PreviewType, signal?: AbortSignal): Promise<PreviewJson> {
    return this.queue.submit({ source, format }, signal);
  }

  stats(): { size: number; busy: number; queued: number } {
    const { size, busy, queued } = this.queue.stats();
    return { size, busy, queued };
  }

  /** Terminates every worker; running and waiting previews reject with PoolClosedError. */
  close(): Promise<void> {
    return this.queue.close();
  }
}
