// The render pool: report renders on worker threads, so the HTTP event loop never runs the
// engine. The queue's mechanics are worker-queue.ts's (shared with the preview pool): workers
// on demand up to `size`, a bounded FIFO queue whose overflow rejects at once (PoolBusyError →
// 503 Retry-After), a worker lost to a time or heap limit, an abort or a crash replaced for the
// next job. This file says what a render job is and which errors it ends in.

import {
  PoolBusyError,
  RenderFailedError,
  RenderMemoryError,
  RenderPageLimitError,
  RenderPoolClosedError,
  RenderTimeoutError,
  TemplateRenderError,
} from './errors.js';
import { DEFAULT_MAX_PAGES } from '../../report/engine/engine.js';
import type { RenderRequest, WorkerJob, WorkerReply } from './protocol.js';
import type { RenderJob, RenderOutcome, RenderPool, RenderPoolOptions, RenderPoolStats } from './types.js';
import { resolveQueueLimits, WorkerQueue, type WorkerQueueLimits } from './worker-queue.js';

const FORMATS = new Set(['html', 'pdf', 'frx']);

export type ResolvedPoolOptions = WorkerQueueLimits & { maxPages: number };

export function resolvePoolOptions(opts: RenderPoolOptions = {}): ResolvedPoolOptions {
  const maxPages = opts.maxPages ?? DEFAULT_MAX_PAGES;
  if (typeof maxPages !== 'number' || !Number.isInteger(maxPages) || maxPages < 1)
    throw new RangeError(`render pool: maxPages must be an integer ≥ 1 (got ${String(maxPages)})`);
  return { ...resolveQueueLimits('render pool', opts, 60_000), maxPages };
}

/** The job as a worker runs it: the pool's page limit, or the smaller one the job asked to be cut at. */
function workerJob({ requestId: _requestId, truncateAtPages, ...job }: RenderJob, maxPages: number): WorkerJob {
  if (truncateAtPages === undefined) return { ...job, maxPages, truncatePages: false };
  return { ...job, maxPages: Math.min(truncateAtPages, maxPages), truncatePages: true };
}

export class RenderWorkerPool implements RenderPool {
  readonly options: ResolvedPoolOptions;
  private readonly cache = { hits: 0, misses: 0 };
  private readonly queue: WorkerQueue<RenderJob, RenderOutcome, WorkerReply>;

  constructor(opts: RenderPoolOptions = {}) {
    this.options = resolvePoolOptions(opts);
    this.queue = new WorkerQueue(this.options, opts.workerScript, {
      noun: 'render',
      initialAverageMs: 1000,
      request: (id, job): RenderRequest => ({ type: 'render', id, job: workerJob(job, this.options.maxPages) }),
      answer: (msg, job) => this.answer(msg, job),
      describe: requestText,
      busy: (seconds) => new PoolBusyError(seconds),
      timeout: (ms) => new RenderTimeoutError(ms),
      outOfMemory: (mb) => new RenderMemoryError(mb),
      failed: (message, cause) => new RenderFailedError(message, cause === undefined ? undefined : { cause }),
      cannotStart: (err) =>
        err instanceof RenderFailedError
          ? err
          : new RenderFailedError(`cannot start a render worker: ${(err as Error).message}`, { cause: err }),
      closed: () => new RenderPoolClosedError(),
    });
  }

  get maxPages(): number {
    return this.options.maxPages;
  }

  render(job: RenderJob, signal?: AbortSignal): Promise<RenderOutcome> {
    // A closed pool or an aborted signal answers first, as for any job.
    if (this.queue.isOpen && !signal?.aborted) {
      if (typeof job?.templatePath !== 'string' || job.templatePath === '')
        return Promise.reject(new TypeError('render job: templatePath must be a non-empty string'));
      const cut = job.truncateAtPages;
      if (cut !== undefined && (!Number.isInteger(cut) || cut < 1))
        return Promise.reject(new TypeError(`render job: truncateAtPages must be an integer ≥ 1 (got ${String(cut)})`));
      if (!FORMATS.has(job.format))
        return Promise.reject(new TemplateRenderError(`unsupported output format "${String(job.format)}"`));
    }
    return this.queue.submit(job, signal);
  }

  stats(): RenderPoolStats {
    return { ...this.queue.stats(), templateCache: { ...this.cache } };
  }

  close(): Promise<void> {
    return this.queue.close();
  }

  private answer(
    msg: Exclude<WorkerReply, { type: 'ready' }>,
    job: RenderJob,
  ): { result: RenderOutcome } | { error: unknown } {
    if (msg.cache === 'hit') this.cache.hits++;
    else if (msg.cache === 'miss') this.cache.misses++;
    if (msg.type === 'done') {
      const output = Buffer.from(msg.output.buffer, msg.output.byteOffset, msg.output.byteLength);
      return {
        result: {
          output,
          contentType: msg.contentType,
          pages: msg.pages,
          truncated: msg.truncated,
          warnings: msg.warnings,
        },
      };
    }
    if (msg.kind === 'too_large') return { error: new RenderPageLimitError(msg.maxPages) };
    if (msg.kind === 'template') return { error: new TemplateRenderError(msg.message) };
    const cause = Object.assign(new Error(msg.message), msg.stack !== undefined ? { stack: msg.stack } : {});
    return { error: new RenderFailedError(`render failed${requestText(job)}: ${msg.message}`, { cause }) };
  }
}

function requestText(job: RenderJob): string {
  return job.requestId ? ` (request ${job.requestId})` : '';
}

/** A render pool with the given limits (see RenderPoolOptions for the defaults). */
export function createRenderPool(opts: RenderPoolOptions = {}): RenderPool {
  return new RenderWorkerPool(opts);
}
