// Entry of a preview worker thread (started by preview-pool.ts): answers each `preview` request
// with the sanitised HTML, or `failed`. Runs compiled from dist/ in the server, or from the
// TypeScript sources through tsx under vitest (src/srs/render-pool/worker-script.ts).

import { isMainThread, parentPort } from 'node:worker_threads';
import { preview } from './markdown.js';
import type { PreviewReply, PreviewRequest } from './preview-pool.js';

if (isMainThread || !parentPort) throw new Error('preview-worker.js runs as a worker thread of the preview pool');
const port = parentPort;
const reply = (msg: PreviewReply) => port.postMessage(msg);

port.on('message', (msg: PreviewRequest) => {
  if (msg?.type !== 'preview') return;
  try {
    reply({ type: 'done', id: msg.id, html: preview(msg.source, msg.format) });
  } catch (err) {
    const e = err instanceof Error ? err : new Error(String(err));
    reply({ type: 'failed', id: msg.id, message: e.message, ...(e.stack !== undefined ? { stack: e.stack } : {}) });
  }
});
reply({ type: 'ready' });
