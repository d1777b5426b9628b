// Entry of a render worker thread (started by pool.ts). It keeps its own template cache and
// answers each `render` request with one `done` (output bytes transferred) or `failed`.
// Runs compiled from dist/ in the server, or from the TypeScript sources through tsx.

import { isMainThread, parentPort } from 'node:worker_threads';
import { RenderTooLargeError, TemplateError } from '../../report/index.js';
import type { CacheUse, RenderRequest, WarmupRequest, WorkerReply } from './protocol.js';
import { runRenderJob } from './render-job.js';
import { TemplateCache } from './template-cache.js';
import { warmUp } from './warmup.js';

if (isMainThread || !parentPort) throw new Error('render-worker.js runs as a worker thread of the render pool');
const port = parentPort;
const cache = new TemplateCache();

const reply = (msg: WorkerReply, transfer: ArrayBuffer[] = []) => port.postMessage(msg, transfer);

async function handle(req: RenderRequest): Promise<void> {
  let cacheUse: CacheUse;
  try {
    const p = await runRenderJob(req.job, cache, (hit) => (cacheUse = hit ? 'hit' : 'miss'));
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
