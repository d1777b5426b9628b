// The render pool: report renders on worker threads, so the HTTP event loop never runs the
// engine. The pool's mechanics are src/lib/worker-pool's (shared with the preview pool and the
// SQLite command processes): workers on demand up to `size`, a bounded FIFO queue whose overflow
// rejects at once (PoolBusyError → 503 Retry-After), a worker lost to a time or heap limit, an
// abort or a crash replaced for the next job. This file says what a render job is and which
// errors it ends in.

import {
  entryBeside,
  failureHooks,
  integerOption,
  jobFailed,
  JobMemoryError,
  JobTimeoutError,
  PoolBusyError,
  resolvePoolLimits,
  threadWorkers,
  WorkerPool,
  type PoolLimits,
} from '../../lib/worker-pool/index.js';
import { DEFAULT_MAX_PAGES } from '../../report/index.js';
import { RenderPageLimitError, TemplateRenderError } from './errors.js';
import type { RenderRequest, WarmupRequest, WorkerJob, WorkerReply } from './protocol.js';
import { isRenderFormat } from '../render-formats.js';
import type { RenderJob, RenderOutcome, RenderPool, RenderPoolOptions, RenderPoolStats } from './types.js';

/** Most time a worker's warm-up may take (warmup.ts stops between renders once past it). */
const WARMUP_BUDGET_MS = 10_000;

export type ResolvedPoolOptions = PoolLimits & {
  maxPages: number;
  scriptLimits?: { maxSteps?: number; maxItems?: number };
  fontDirs?: string[];
};

export function resolvePoolOptions(opts: RenderPoolOptions = {}): ResolvedPoolOptions {
  const maxPages = integerOption('render pool', 'maxPages', opts.maxPages, DEFAULT_MAX_PAGES, 1);
  return {
    ...resolvePoolLimits('render pool', opts, 60_000),
    maxPages,
    ...(opts.scriptLimits ? { scriptLimits: opts.scriptLimits } : {}),
    ...(opts.fontDirs && opts.fontDirs.length > 0 ? { fontDirs: opts.fontDirs } : {}),
  };
}

/** The job as a worker runs it: the pool's page limit, or the smaller one the job asked to be cut at. */
function workerJob(
  { requestId: _requestId, truncateAtPages, ...job }: RenderJob,
  { maxPages, scriptLimits, fontDirs }: ResolvedPoolOptions,
): WorkerJob {
  const limits = { ...(scriptLimits ? { scriptLimits } : {}), ...(fontDirs ? { fontDirs } : {}) };
  if (truncateAtPages === undefined) return { ...job, ...limits, maxPages, truncatePages: false };
  return { ...job, ...limits, maxPages: Math.min(truncateAtPages, maxPages), truncatePages: true };
}

export class RenderWorkerPool implements RenderPool {
  readonly options: ResolvedPoolOptions;
  private readonly cache = { hits: 0, misses: 0 };
  private readonly queue: WorkerPool<RenderJob, RenderOutcome, WorkerReply>;

  constructor(opts: RenderPoolOptions = {}) {
    const options = resolvePoolOptions(opts);
    this.options = options;
    this.queue = new WorkerPool(options, {
      noun: 'render',
      initialAverageMs: 1000,
      startWorker: threadWorkers({
        script: opts.workerScript ?? entryBeside(import.meta.url, 'render-worker'),
        noun: 'render',
        maxMemoryMb: options.maxMemoryMb,
      }),
      request: (id, job): RenderRequest => ({ type: 'render', id, job: workerJob(job, options) }),
      timeLimitMs: () => options.timeoutMs,
      warmup: (id): WarmupRequest => ({
        type: 'warmup',
        id,
        budgetMs: WARMUP_BUDGET_MS,
        ...(options.fontDirs ? { fontDirs: options.fontDirs } : {}),
      }),
      answer: (msg, job) => this.answer(msg, job),
      ...failureHooks<RenderJob>({
        noun: 'render',
        describe: requestText,
        busy: (seconds) => new PoolBusyError(seconds, 'the report renderer'),
        timeout: () =>
          new JobTimeoutError(
            options.timeoutMs,
            `the report took longer than ${options.timeoutMs / 1000} s to render and was stopped`,
          ),
        outOfMemory: () => memoryError(options.maxMemoryMb),
      }),
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
      if (!isRenderFormat(job.format))
        return Promise.reject(new TemplateRenderError(`unsupported output format "${String(job.format)}"`));
    }
    return this.queue.submit(job, signal);
  }

  stats(): RenderPoolStats {
    const { size, busy, queued, lost } = this.queue.stats();
    return { size, busy, queued, lost, templateCache: { ...this.cache } };
  }

  /** Tests: no render goes to a worker until the returned release is called (WorkerPool.hold). */
  hold(): () => void {
    return this.queue.hold();
  }

  warmUp(): void {
    this.queue.startAll();
  }

  close(): Promise<void> {
    return this.queue.close();
  }

  private answer(
    msg: Exclude<WorkerReply, { type: 'ready' }>,
    job: RenderJob,
  ): { result: RenderOutcome } | { error: unknown } {
    // The generic pool ends warm-ups itself (by their id); one never reaches here.
    if (msg.type === 'warmed') return { error: new Error(`unexpected warm-up reply${requestText(job)}`) };
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
    // A streamed document past the limit, counted on its bytes (the worker stays).
    if (msg.kind === 'memory') return { error: memoryError(this.options.maxMemoryMb) };
    if (msg.kind === 'template') return { error: new TemplateRenderError(msg.message) };
    return { error: jobFailed(`render failed${requestText(job)}`, msg) };
  }
}

/** The answer to a render over its memory: the worker's heap or its streamed document's bytes. */
function memoryError(maxMemoryMb: number): JobMemoryError {
  return new JobMemoryError(
    maxMemoryMb,
    `the report needs more than the ${maxMemoryMb} MB of memory a render may use and was stopped`,
  );
}

function requestText(job: RenderJob): string {
  return job.requestId ? ` (request ${job.requestId})` : '';
}

/** A render pool with the given limits (see RenderPoolOptions for the defaults). */
export function createRenderPool(opts: RenderPoolOptions = {}): RenderPool {
  return new RenderWorkerPool(opts);
}
