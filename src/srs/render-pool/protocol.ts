// Messages between the pool (main thread) and a render worker, over the worker's parentPort.
// A worker announces `ready` once its modules are loaded; the pool sends it one `render` at a
// time and gets exactly one `done` or `failed` back for it. The output bytes travel in the
// transfer list (moved, not copied).

import type { RenderJob } from './types.js';

/** What a worker needs of a job (the request id stays in the main thread): the page limit of
 *  this run (the pool always sets it; the engine's default otherwise), and whether reaching it
 *  cuts the report (the job's truncateAtPages) or fails it. */
export type WorkerJob = Omit<RenderJob, 'requestId' | 'truncateAtPages'> & {
  maxPages?: number;
  truncatePages?: boolean;
  scriptLimits?: { maxSteps?: number; maxItems?: number };
  fontDirs?: string[];
  /** The most bytes a streamed document may grow to: the worker's heap limit (render-worker.ts),
   *  since streamed bytes live outside the heap. */
  maxOutputBytes?: number;
};

export interface RenderRequest {
  type: 'render';
  id: number;
  job: WorkerJob;
}

/** Sent once to a new worker before its first job when the pool warms its workers (warmup.ts);
 *  answered with `warmed`. */
export interface WarmupRequest {
  type: 'warmup';
  id: number;
  budgetMs: number;
  fontDirs?: string[];
}

/** Whether the template came from the worker's cache; undefined when it was never reached. */
export type CacheUse = 'hit' | 'miss' | undefined;

export type WorkerReply =
  | { type: 'ready' }
  | { type: 'warmed'; id: number; renders: number; ms: number; error?: string }
  | {
      type: 'done';
      id: number;
      output: Uint8Array;
      contentType: string;
      pages: number;
      truncated: boolean;
      warnings: string[];
      cache: CacheUse;
    }
  | { type: 'failed'; id: number; kind: 'template' | 'internal'; message: string; stack?: string; cache: CacheUse }
  | { type: 'failed'; id: number; kind: 'too_large'; maxPages: number; message: string; cache: CacheUse }
  | { type: 'failed'; id: number; kind: 'memory'; message: string; cache: CacheUse };
