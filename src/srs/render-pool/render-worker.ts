// Entry of a render worker thread (started by pool.ts). It keeps its own template cache and
// answers each `render` request with one `done` (output bytes transferred) or `failed`.
// Runs compiled from dist/ in the server, or from the TypeScript sources through tsx.

import { isMainThread, parentPort, resourceLimits } from 'node:worker_threads';
import { RenderOutputTooLargeError, RenderTooLargeError, TemplateError } from '../../report/index.js';
import type { CacheUse, RenderRequest, WarmupRequest, WorkerReply } from './protocol.js';
import { runRenderJob } from './render-job.js';
import { TemplateCache } from './template-cache.js';
import { warmUp } from './warmup.js';

if (isMainThread || !parentPort) throw new Error('render-worker.js runs as a worker thread of the render pool');
const port = parentPort;
const cache = new TemplateCache();

const reply = (msg: WorkerReply, transfer: ArrayBuffer[] = []) => port.postMessage(msg, transfer);
// A streamed document's bytes are outside the heap that the worker's limit bounds: the same limit
// is counted on them (a million-row report streams within a 64 MB heap otherwise).
const heapMb = resourceLimits.maxOldGenerationSizeMb;
const maxOutputBytes = heapMb !== undefined && heapMb > 0 ? heapMb * 1024 * 1024 : undefined;

async function handle(req: RenderRequest): Promise<void> {
  let cacheUse: CacheUse;
  try {
    const job = maxOutputBytes !== undefined ? { ...req.job, maxOutputBytes } : req.job;
    const p = await runRenderJob(job, cache, (hit) => (cacheUse = hit ? 'hit' : 'miss'));
    reply(
      {
        type: 'done',
        id: req.id,
        output: p.output,
        contentType: p.contentType,
        pages: p.pages,
        truncated: p.truncated,
        warnings: p.warnings,
        cache: cacheUse,
      },
      [p.output.buffer as ArrayBuffer],
    );
  } catch (err) {
    if (err instanceof RenderTooLargeError) {
      reply({
        type: 'failed',
        id: req.id,
        kind: 'too_large',
        maxPages: err.maxPages,
        message: err.message,
        cache: cacheUse,
      });
      return;
    }
    if (err instanceof RenderOutputTooLargeError) {
      reply({ type: 'failed', id: req.id, kind: 'memory', message: err.message, cache: cacheUse });
      return;
    }
    const e = err instanceof Error ? err : new Error(String(err));
    reply({
      type: 'failed',
      id: req.id,
      kind: err instanceof TemplateError ? 'template' : 'internal',
      message: e.message,
      ...(e.stack !== undefined ? { stack: e.stack } : {}),
      cache: cacheUse,
    });
  }
}

// A job ends the warm-up: the pool sends one to a warming worker when no other is idle.
let jobCame = false;
async function warm(req: WarmupRequest): Promise<void> {
  reply({ type: 'warmed', id: req.id, ...(await warmUp(req.budgetMs, req.fontDirs, () => jobCame)) });
}

port.on('message', (msg: RenderRequest | WarmupRequest) => {
  if (msg?.type === 'render') {
    jobCame = true;
    void handle(msg);
  } else if (msg?.type === 'warmup') void warm(msg);
});
reply({ type: 'ready' });
