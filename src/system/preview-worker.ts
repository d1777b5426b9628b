// Entry of a preview worker thread (started by preview-pool.ts): answers each `preview` request
// with the sanitised HTML as a JSON string in UTF-8 bytes, with room around it for the answer's
// envelope (moved to the pool, not copied), or `failed`. Runs compiled from dist/ in the server,
// or from the TypeScript sources through tsx under vitest (src/lib/worker-pool/launch.ts).

import { constants, setPriority } from 'node:os';
import { isMainThread, parentPort } from 'node:worker_threads';
import { preview } from './markdown.js';
import { JSON_HEADROOM, JSON_TAILROOM, type PreviewReply, type PreviewRequest } from './preview-protocol.js';

if (isMainThread || !parentPort) throw new Error('preview-worker.js runs as a worker thread of the preview pool');
// A preview is background work beside the event loop: where the two compete for a core, the
// event loop should win. On Linux the nice value belongs to the thread (a thread is a task), so
// this lowers this worker alone; elsewhere it would lower the whole process, so it is left alone.
if (process.platform === 'linux') {
  try {
    setPriority(0, constants.priority.PRIORITY_BELOW_NORMAL);
  } catch {
    // Not allowed here (a sandbox): the worker runs at the process's priority.
  }
}
const port = parentPort;
const reply = (msg: PreviewReply, transfer: ArrayBuffer[] = []) => port.postMessage(msg, transfer);
const utf8 = new TextEncoder();

/** `text` in UTF-8 with JSON_HEADROOM free bytes before it and JSON_TAILROOM after it, in an
 *  ArrayBuffer of its own (so that it can be transferred). */
function withRoom(text: string): { bytes: Uint8Array; start: number; end: number } {
  const start = JSON_HEADROOM;
  const end = start + Buffer.byteLength(text);
  const bytes = new Uint8Array(end + JSON_TAILROOM);
  utf8.encodeInto(text, bytes.subarray(start, end));
  return { bytes, start, end };
}

port.on('message', (msg: PreviewRequest) => {
  if (msg?.type !== 'preview') return;
  try {
    // Escaped and encoded here: for a large table that is megabytes the event loop would
    // otherwise copy, escape, encode and copy again for the answer.
    const json = withRoom(JSON.stringify(preview(msg.source, msg.format)));
    reply({ type: 'done', id: msg.id, ...json }, [json.bytes.buffer as ArrayBuffer]);
  } catch (err) {
    const e = err instanceof Error ? err : new Error(String(err));
    reply({ type: 'failed', id: msg.id, message: e.message, ...(e.stack !== undefined ? { stack: e.stack } : {}) });
  }
});
reply({ type: 'ready' });
